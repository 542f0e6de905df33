// `leadctl help [command...]` and the topics `environment` and `exit-codes`, as gh has them (commander's help
// command takes no topics), and what every command's definition shares: withExamples, runs. The tables
// load with the definitions: a few kilobytes, no import of their own.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../../api/errors.js';
import type { ContextFor, Program } from '../../session.js';
import { wrapWords } from '../../ui/error-lines.js';

/** Two or three real examples at the end of a command's --help, after the text `before` if any. */
export function withExamples<C extends CommandUnknownOpts>(command: C, lines: string[], before = ''): C {
  command.addHelpText('after', `${before}\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
  return command;
}

/** The request-making commands' run code (../runs.ts), loaded when their action runs. */
export const runs = () => import('../runs.js');

/** For the root --help, before its examples: where the reference tables are. */
export const TOPICS_POINTER = `
Help topics:
  leadctl help environment   variables, their flags and config keys, which one wins
  leadctl help exit-codes    what each exit code means
`;

export function registerHelp(program: Program, contextFor: ContextFor) {
  program.helpCommand(false);
  const help = withExamples(
    program
      .command('help')
      .description('show help for a command, or a topic: environment, exit-codes')
      .argument('[command...]', 'the command to show help for, e.g. "config set"')
      .option('--json', 'every command, flag, output format and exit code as JSON, for programs and agents'),
    ['leadctl help environment', 'leadctl help config set', "leadctl help --json | jq '.commands[].name'"],
  ).action(async (words, flags, self) => {
    if (!flags.json) return commandHelp(program, words).outputHelp();
    const { contractJson } = await import('./spec.js');
    commandHelp(program, words);
    contextFor(self).io.stdout.write(contractJson(program, words));
  });
  const topic = (name: string, description: string, text: () => string, rows: () => unknown) =>
    help
      .command(name)
      .description(description)
      // `help environment --json`: the --json is help's, which commander reads before the topic.
      .action(async (_flags, self) => {
        const { json } = self.optsWithGlobals() as { json?: boolean };
        contextFor(self).io.stdout.write(json ? `${JSON.stringify(rows(), null, 2)}\n` : text());
      });
  topic(
    'environment',
    'environment variables, their flags and config keys, and which wins',
    environmentTopic,
    () => ENVIRONMENT.map((row) => ({ ...row, meaning: plain(row.meaning) })),
  );
  topic('exit-codes', 'what each exit code means', exitCodesTopic, () =>
    EXIT_CODES.map((row) => ({ ...row, when: plain(row.when) })),
  );
  return help;
}

// The README has the same rows (test/e2e/help-topics.test.ts compares them): markdown, `code` spans stripped.
/** variable | the flag that sets the same | its `config set` key | meaning */
export const ENVIRONMENT = tableRows(`
LEADCTL_API_KEY | --api-key | api-key | the API key, sent as a Bearer token
LEADCTL_BASE_URL | --base-url | base-url | the API base address; \`/api/v1/...\` is appended
LEADCTL_PROFILE | --profile | - | the stored profile to use (default: \`default\`)
LEADCTL_TIMEOUT | --timeout | timeout | seconds per request attempt (default: 30)
LEADCTL_DEBUG | --verbose | - | \`1\`: one stderr line per HTTP attempt, and stack traces on errors
NO_COLOR | --no-color | - | any value: no colour anywhere
LEADCTL_PAGER | --no-pager | - | the pager for output on a terminal (before \`PAGER\`, default \`less\` with \`LESS=FRX\`); \`cat\`: none
FORCE_COLOR | - | - | colour even when piped (into \`less -R\`), never in -o files; \`0\`: no effect; NO_COLOR wins
CLICOLOR_FORCE | - | - | the same as FORCE_COLOR
ACCESSIBLE | - | - | not \`0\`/\`false\`: plain progress lines
TERM | - | - | \`dumb\`: no pager, no colour, plain progress lines
COLUMNS | - | - | the width a table fits when it is not written to a terminal (a pipe, -o)
XDG_CONFIG_HOME | - | - | the config file is \`$XDG_CONFIG_HOME/leadctl/config.json\` (default: \`~/.config/leadctl/config.json\`)
XDG_STATE_HOME | - | - | the usage ledger is \`$XDG_STATE_HOME/leadctl/usage.json\` (default: \`~/.local/state/leadctl/usage.json\`)
XDG_DATA_HOME | --db | - | sync's database is \`$XDG_DATA_HOME/leadctl/leads.db\` (default: \`~/.local/share/leadctl/leads.db\`)
LEADCTL_MAX_BODY_BYTES | - | - | the largest response body read, in bytes (default: 16 MiB); past it the run stops with exit 7
HTTPS_PROXY | - | - | the proxy for https:// base URLs, as curl reads it (also \`https_proxy\`); \`--verbose\` names it
HTTP_PROXY | - | - | the proxy for http:// base URLs, and for https:// when HTTPS_PROXY is unset (also \`http_proxy\`)
NO_PROXY | - | - | hosts reached directly, not through the proxy: \`host\`, \`.domain\`, \`host:port\`, or \`*\` (also \`no_proxy\`)
NODE_EXTRA_CA_CERTS | - | - | a PEM file of extra CA certificates (a corporate proxy or CA), read by Node at start-up`).map(
  ([variable = '', flag = '', configKey = '', meaning = '']) => ({ variable, flag, configKey, meaning }),
);

export const PRECEDENCE =
  'Each setting comes from a flag, an environment variable or the stored profile, and the first one ' +
  'found wins: flag > environment > profile > default. An empty variable counts as unset. ' +
  '`--retries` and `--max-wait` have no variable: use the flag or `leadctl config set`.';

export const EXIT_CODES = tableRows(`
0 | success (also: the reader of stdout went away)
1 | unexpected internal error, or output that cannot be written (disk full)
2 | bad usage or input: unknown option, missing argument, value out of range, bad config file, 400/404/422 or another 4xx from the server
3 | no API key configured, or 401
4 | 403: account deactivated, or a plan without API access
5 | 429 whose wait exceeds \`--max-wait\` (or retries on 429 exhausted)
6 | server or network failure after retries (5xx, refused, reset, timeout, DNS)
7 | the server answered something that is not a valid response (not JSON, wrong shape, a redirect)
129 | SIGHUP (the terminal closed): stopped as on Ctrl-C
130 | interrupted (Ctrl-C): the rows received are left in the partial file stderr names
143 | SIGTERM (kill, a service manager): stopped as on Ctrl-C`).map(([code, when = '']) => ({
  code: Number(code),
  when,
}));

/** A table written one row a line, cells between ` | `, `-` for an empty one. */
function tableRows(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .map((line) => line.split(' | ').map((cell) => (cell === '-' ? '' : cell)));
}

const WIDTH = 80;

export function environmentTopic(): string {
  const nameWidth = Math.max(...ENVIRONMENT.map((row) => row.variable.length)) + 2;
  const entries = ENVIRONMENT.map((row) => {
    const setBy = [row.flag && `flag ${row.flag}`, row.configKey && `config key ${row.configKey}`]
      .filter(Boolean)
      .join(', ');
    const lines = [...(setBy ? [setBy] : []), ...wrapWords(plain(row.meaning), WIDTH - 2 - nameWidth)];
    return hanging(row.variable, nameWidth, lines);
  });
  return `Environment variables\n\n${wrapWords(plain(PRECEDENCE), WIDTH).join('\n')}\n\n${entries.join('\n')}\n`;
}

export function exitCodesTopic(): string {
  const codeWidth = Math.max(...EXIT_CODES.map((row) => String(row.code).length)) + 2;
  const entries = EXIT_CODES.map((row) =>
    hanging(String(row.code), codeWidth, wrapWords(plain(row.when), WIDTH - 2 - codeWidth)),
  );
  return `Exit codes\n\n${entries.join('\n')}\n`;
}

/** `help config set`: that command; words that name no command are a usage error. */
function commandHelp(program: CommandUnknownOpts, words: string[]): CommandUnknownOpts {
  let target = program;
  for (const word of words) {
    const next = target.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!next) {
      throw new UsageError(
        `no help for "${words.join(' ')}": not a command or a topic`,
        'topics: leadctl help environment, leadctl help exit-codes; commands: leadctl --help',
      );
    }
    target = next;
  }
  return target;
}

/** The README's markdown code spans, as plain text. */
export function plain(text: string): string {
  return text.replaceAll('`', '');
}

/** `  label   first line` then the other lines under the first. */
function hanging(label: string, width: number, lines: string[]): string {
  const indent = ' '.repeat(2 + width);
  return lines
    .map((line, index) => (index === 0 ? `  ${label.padEnd(width)}${line}` : `${indent}${line}`))
    .join('\n');
}
