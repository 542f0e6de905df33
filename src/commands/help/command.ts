// `leadctl help [command...]` and its topics `help environment` and `help exit-codes`, as gh has them.
// commander's built-in help command cannot take topics, so this one replaces it at the root: a word
// that names a topic runs the topic, any other words name the command whose help to show. Below the
// command: the two reference tables and their rendering for a terminal (a few kilobytes of text,
// loaded with the definitions rather than behind an import of their own).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../../api/errors.js';
import type { ContextFor, Program } from '../../session.js';

/** Two or three real examples at the end of a command's --help. */
export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** For the root --help, before its examples: where the reference tables are. */
export const TOPICS_POINTER = `
Help topics:
  leadctl help environment   variables, their flags and config keys, which one wins
  leadctl help exit-codes    what each exit code means`;

export function registerHelp(program: Program, contextFor: ContextFor) {
  program.helpCommand(false);
  const help = program
    .command('help')
    .description('show help for a command, or a topic: environment, exit-codes')
    .argument('[command...]', 'the command to show help for, e.g. "config set"')
    .addHelpText(
      'after',
      examples(['leadctl help environment', 'leadctl help exit-codes', 'leadctl help config set']),
    )
    .action(async (words) => {
      showCommandHelp(program, words);
    });
  help
    .command('environment')
    .description('environment variables, their flags and config keys, and which wins')
    .action(async (_flags, self) => {
      contextFor(self).io.stdout.write(environmentTopic());
    });
  help
    .command('exit-codes')
    .description('what each exit code means')
    .action(async (_flags, self) => {
      contextFor(self).io.stdout.write(exitCodesTopic());
    });
  return help;
}

// The two reference tables of `leadctl help environment` and `leadctl help exit-codes`. They are the
// one source: the README carries the same rows (test/e2e/help-topics.test.ts compares them), so text
// is written as README markdown, with `code` spans that the terminal rendering strips.

export interface EnvironmentRow {
  variable: string;
  /** The flag that sets the same thing, if any. */
  flag: string;
  /** The key of `leadctl config set`, if any. */
  configKey: string;
  meaning: string;
}

export const ENVIRONMENT: readonly EnvironmentRow[] = [
  {
    variable: 'LEADCTL_API_KEY',
    flag: '--api-key',
    configKey: 'api-key',
    meaning: 'the API key, sent as a Bearer token',
  },
  {
    variable: 'LEADCTL_BASE_URL',
    flag: '--base-url',
    configKey: 'base-url',
    meaning: 'the API base address; `/api/v1/...` is appended',
  },
  {
    variable: 'LEADCTL_PROFILE',
    flag: '--profile',
    configKey: '',
    meaning: 'the stored profile to use (default: `default`)',
  },
  {
    variable: 'LEADCTL_TIMEOUT',
    flag: '--timeout',
    configKey: 'timeout',
    meaning: 'seconds per request attempt (default: 30)',
  },
  {
    variable: 'LEADCTL_DEBUG',
    flag: '--verbose',
    configKey: '',
    meaning: '`1`: one stderr line per HTTP attempt, and stack traces on errors',
  },
  { variable: 'NO_COLOR', flag: '--no-color', configKey: '', meaning: 'any value: no colour anywhere' },
  {
    variable: 'LEADCTL_PAGER',
    flag: '--no-pager',
    configKey: '',
    meaning:
      'the pager for output on a terminal (before `PAGER`, default `less` with `LESS=FRX`); `cat`: none',
  },
  {
    variable: 'FORCE_COLOR',
    flag: '',
    configKey: '',
    meaning: 'colour even when piped (into `less -R`), never in -o files; `0`: no effect; NO_COLOR wins',
  },
  { variable: 'CLICOLOR_FORCE', flag: '', configKey: '', meaning: 'the same as FORCE_COLOR' },
  { variable: 'ACCESSIBLE', flag: '', configKey: '', meaning: 'not `0`/`false`: plain progress lines' },
  { variable: 'TERM', flag: '', configKey: '', meaning: '`dumb`: no pager, no colour, plain progress lines' },
  {
    variable: 'COLUMNS',
    flag: '',
    configKey: '',
    meaning: 'the width a table fits when it is not written to a terminal (a pipe, -o)',
  },
  {
    variable: 'XDG_CONFIG_HOME',
    flag: '',
    configKey: '',
    meaning:
      'the config file is `$XDG_CONFIG_HOME/leadctl/config.json` (default: `~/.config/leadctl/config.json`)',
  },
  {
    variable: 'XDG_STATE_HOME',
    flag: '',
    configKey: '',
    meaning:
      'the usage ledger is `$XDG_STATE_HOME/leadctl/usage.json` (default: `~/.local/state/leadctl/usage.json`)',
  },
  {
    variable: 'XDG_DATA_HOME',
    flag: '--db',
    configKey: '',
    meaning:
      "sync's database is `$XDG_DATA_HOME/leadctl/leads.db` (default: `~/.local/share/leadctl/leads.db`)",
  },
  {
    variable: 'LEADCTL_MAX_BODY_BYTES',
    flag: '',
    configKey: '',
    meaning: 'the largest response body read, in bytes (default: 16 MiB); past it the run stops with exit 7',
  },
  {
    variable: 'HTTPS_PROXY',
    flag: '',
    configKey: '',
    meaning: 'the proxy for https:// base URLs, as curl reads it (also `https_proxy`); `--verbose` names it',
  },
  {
    variable: 'HTTP_PROXY',
    flag: '',
    configKey: '',
    meaning:
      'the proxy for http:// base URLs, and for https:// when HTTPS_PROXY is unset (also `http_proxy`)',
  },
  {
    variable: 'NO_PROXY',
    flag: '',
    configKey: '',
    meaning:
      'hosts reached directly, not through the proxy: `host`, `.domain`, `host:port`, or `*` (also `no_proxy`)',
  },
  {
    variable: 'NODE_EXTRA_CA_CERTS',
    flag: '',
    configKey: '',
    meaning: 'a PEM file of extra CA certificates (a corporate proxy or CA), read by Node at start-up',
  },
];

export const PRECEDENCE =
  'Each setting comes from a flag, an environment variable or the stored profile, and the first one ' +
  'found wins: flag > environment > profile > default. An empty variable counts as unset. ' +
  '`--retries` and `--max-wait` have no variable: use the flag or `leadctl config set`.';

export interface ExitCodeRow {
  code: number;
  when: string;
}

export const EXIT_CODES: readonly ExitCodeRow[] = [
  { code: 0, when: 'success (also: the reader of stdout went away)' },
  { code: 1, when: 'unexpected internal error, or output that cannot be written (disk full)' },
  {
    code: 2,
    when: 'bad usage or input: unknown option, missing argument, value out of range, bad config file, 400/404/422 or another 4xx from the server',
  },
  { code: 3, when: 'no API key configured, or 401' },
  { code: 4, when: '403: account deactivated, or a plan without API access' },
  { code: 5, when: '429 whose wait exceeds `--max-wait` (or retries on 429 exhausted)' },
  { code: 6, when: 'server or network failure after retries (5xx, refused, reset, timeout, DNS)' },
  {
    code: 7,
    when: 'the server answered something that is not a valid response (not JSON, wrong shape, a redirect)',
  },
  { code: 129, when: 'SIGHUP (the terminal closed): stopped as on Ctrl-C' },
  { code: 130, when: 'interrupted (Ctrl-C): the rows received are left in the partial file stderr names' },
  { code: 143, when: 'SIGTERM (kill, a service manager): stopped as on Ctrl-C' },
];

/** The rows as README markdown cells (empty cells stay empty), for the README comparison. */
export function environmentMarkdownRows(): string[][] {
  const code = (text: string) => (text === '' ? '' : `\`${text}\``);
  return ENVIRONMENT.map((row) => [code(row.variable), code(row.flag), code(row.configKey), row.meaning]);
}

export function exitCodeMarkdownRows(): string[][] {
  return EXIT_CODES.map((row) => [String(row.code), row.when]);
}

// The text of the help topics, rendered for a terminal from the tables above, and the help of a
// command named by words (`leadctl help config set`).

const WIDTH = 80;

export function environmentTopic(): string {
  const nameWidth = Math.max(...ENVIRONMENT.map((row) => row.variable.length)) + 2;
  const entries = ENVIRONMENT.map((row) => {
    const setBy = [row.flag && `flag ${row.flag}`, row.configKey && `config key ${row.configKey}`]
      .filter(Boolean)
      .join(', ');
    const lines = [...(setBy ? [setBy] : []), ...wrap(plain(row.meaning), WIDTH - 2 - nameWidth)];
    return hanging(row.variable, nameWidth, lines);
  });
  return `Environment variables\n\n${wrap(plain(PRECEDENCE), WIDTH).join('\n')}\n\n${entries.join('\n')}\n`;
}

export function exitCodesTopic(): string {
  const codeWidth = Math.max(...EXIT_CODES.map((row) => String(row.code).length)) + 2;
  const entries = EXIT_CODES.map((row) =>
    hanging(String(row.code), codeWidth, wrap(plain(row.when), WIDTH - 2 - codeWidth)),
  );
  return `Exit codes\n\n${entries.join('\n')}\n`;
}

/** `help config set`: the help of that command; words that name no command are a usage error. */
export function showCommandHelp(program: CommandUnknownOpts, words: string[]): void {
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
  target.outputHelp();
}

/** The README's markdown code spans, as plain text. */
function plain(text: string): string {
  return text.replaceAll('`', '');
}

/** `  label   first line` then the other lines under the first. */
function hanging(label: string, width: number, lines: string[]): string {
  const indent = ' '.repeat(2 + width);
  return lines
    .map((line, index) => (index === 0 ? `  ${label.padEnd(width)}${line}` : `${indent}${line}`))
    .join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
