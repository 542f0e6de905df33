// The commander program: one registration per command. Definitions import only commander; each
// action loads its heavy module when it runs.
import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { registerApi } from './commands/api/command.js';
import { registerAuth } from './commands/auth/command.js';
import { registerCompletion } from './commands/completion/command.js';
import { registerConfig } from './commands/config/command.js';
import { registerHelp, TOPICS_POINTER, withExamples } from './commands/help/command.js';
import { registerLists } from './commands/list/command.js';
import { registerMcp } from './commands/mcp/command.js';
import { registerSandbox } from './commands/sandbox/command.js';
import { registerSearch } from './commands/search/command.js';
import { registerSync } from './commands/sync/command.js';
import { registerUsage } from './commands/usage/command.js';
import { createProgram } from './global-options.js';
import type { ContextFor, Io, Program } from './session.js';

export function buildProgram(io: Io, signal: AbortSignal): Program {
  const program = createProgram();
  // These reach subcommands only when set before .command() is called.
  program
    // `config help set` ends in commander's help() (code commander.help, exit 0): that is help shown
    // on request, as --help is, so it is passed on as such rather than as a usage error.
    .exitOverride(function passOn(this: CommandUnknownOpts, error) {
      if (error.code === 'commander.help' && error.exitCode === 0) {
        throw new CommanderError(0, 'commander.helpDisplayed', error.message);
      }
      // For cli.ts's hint, which names this command's --help.
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

  withExamples(
    program,
    [
      'leadctl search "plumber" --location Austin --sandbox',
      'leadctl leads --all --csv -o leads.csv',
      "leadctl search plumber -l Austin --json | jq -r '.[].phone'",
    ],
    TOPICS_POINTER,
  );

  const contextFor: ContextFor = (command) => ({ io, globals: command.optsWithGlobals(), signal });
  registerLists(program, contextFor);
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

// `leadctl auth` alone: its help on stdout, exit 0, as bare `leadctl` and gh do (commander would print it on
// stderr as an error). A word that names no subcommand is still an unknown command.
function showHelpWhenBare(group: CommandUnknownOpts): void {
  // An action turns off commander's implicit `help` subcommand: kept on (`config help set`).
  group.helpCommand(true);
  group.allowExcessArguments().action(function helpOrUnknown(this: CommandUnknownOpts) {
    if (this.args.length === 0) {
      this.outputHelp();
      return;
    }
    // commander's own refusal (and "did you mean"), which its dispatch would have given.
    (this as unknown as { unknownCommand(): never }).unknownCommand();
  });
}

/** `config set` for the command `leadctl config set` ran as; '' for the program itself. */
function commandPathOf(command: CommandUnknownOpts | undefined): string {
  const names: string[] = [];
  for (let at = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
