// Builds the commander program: the global options of cli.md and one registration per command.
// Command definitions import only commander; each action loads its heavy module when it runs.
import { Command, CommanderError } from 'commander';
import { registerApi } from './commands/api.js';
import { registerAuth } from './commands/auth.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import type { ContextFor, GlobalOptions, Io } from './commands/context.js';
import { examples } from './commands/help-text.js';
import { registerHelp, TOPICS_POINTER } from './commands/help-topics.js';
import { registerHistory } from './commands/history.js';
import { registerLeads } from './commands/leads.js';
import { registerMcp } from './commands/mcp.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSearch } from './commands/search.js';
import { registerSync } from './commands/sync.js';
import { registerUsage } from './commands/usage.js';
import { explainRun } from './ui/error-lines.js';
import { VERSION } from './version.js';

export function buildProgram(io: Io, signal: AbortSignal): Command {
  const program = new Command('leadctl');
  // These reach subcommands only when set before .command() is called.
  program
    // `config help set` ends in commander's help() (code commander.help, exit 0): that is help shown
    // on request, as --help is, so it is passed on as such rather than as a usage error.
    .exitOverride(function passOn(this: Command, error) {
      if (error.code === 'commander.help' && error.exitCode === 0) {
        throw new CommanderError(0, 'commander.helpDisplayed', error.message);
      }
      // cli.ts words a usage error (one line and a hint naming this command's --help).
      throw Object.assign(error, { commandPath: commandPathOf(this) });
    })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // The width of the streams main() was given, not of whatever process.stdout is.
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      // Said by cli.ts instead, in the contract's shape (ui/error-lines.ts).
      outputError: () => {},
    })
    // Each command's help also lists the options every command takes (--sandbox, --api-key, -q…).
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);

  program
    .description(
      'Command-line client for the Lead Data API v1: saved leads, search history and lead searches.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .option(
      '--api-key <key>',
      'API key (prefer `leadctl config set api-key`: flags show in the process list)',
    )
    .option('--base-url <url>', 'API base address; /api/v1/... is appended')
    .option('--profile <name>', 'stored profile to use (default: "default")')
    .option('--sandbox', 'run against the built-in sandbox on 127.0.0.1 (no key, no network)')
    .option('--timeout <s>', 'seconds per request (default: 30)')
    .option('--retries <n>', 'retries for 5xx and network errors (default: 3)')
    .option('--max-wait <s>', 'longest single wait on a rate limit before giving up (default: 60)')
    .option('-q, --quiet', 'no progress and no notices on stderr')
    .option('--verbose', 'one stderr line per HTTP attempt; stack traces on errors')
    .option('--no-color', 'no colour on stderr or in tables')
    .option('--no-pager', 'no pager for long output on a terminal (also: LEADCTL_PAGER=cat)');

  // Hints name what this command can change (error-lines.ts): `api nothing` lacks a path, not a base URL.
  program.hook('preAction', (_program, action) => explainRun({ command: commandPathOf(action) }));

  program.addHelpText('after', TOPICS_POINTER);
  program.addHelpText(
    'after',
    examples([
      'leadctl search "plumber" --location Austin --sandbox',
      'leadctl leads --all --csv -o leads.csv',
      "leadctl search plumber -l Austin --json | jq -r '.[].phone'",
    ]),
  );

  const contextFor: ContextFor = (command) => ({
    io,
    globals: command.optsWithGlobals() as GlobalOptions,
    signal,
  });
  registerLeads(program, contextFor);
  registerHistory(program, contextFor);
  registerSearch(program, contextFor);
  registerConfig(program, contextFor);
  registerCompletion(program, contextFor);
  registerSandbox(program, contextFor);
  registerAuth(program, contextFor);
  registerSync(program, contextFor);
  registerUsage(program, contextFor);
  registerApi(program, contextFor);
  registerMcp(program, contextFor);
  registerHelp(program, contextFor);
  // Groups of subcommands that take no words of their own (`help` takes a command or a topic).
  for (const group of program.commands) {
    if (group.commands.length > 0 && group.registeredArguments.length === 0) showHelpWhenBare(group);
  }
  return program;
}

/**
 * `leadctl auth` or `leadctl config` alone asks what the group holds: its help on stdout, exit 0, as
 * bare `leadctl` and gh do (commander would print it on stderr as an error). A word that names no
 * subcommand is still an unknown command, with commander's own suggestion.
 */
function showHelpWhenBare(group: Command): void {
  // An action turns off commander's implicit `help` subcommand: kept on (`config help set`).
  group.helpCommand(true);
  group.allowExcessArguments().action(function helpOrUnknown(this: Command) {
    if (this.args.length === 0) {
      this.outputHelp();
      return;
    }
    // commander's own refusal (and "did you mean"), which its dispatch would have given.
    (this as unknown as { unknownCommand(): never }).unknownCommand();
  });
}

/** `config set` for the command `leadctl config set` ran as; '' for the program itself. */
function commandPathOf(command: Command | undefined): string {
  const names: string[] = [];
  for (let at = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
