// A failure as `leadctl: <message>` and its hint, or as one JSON object for a program reading stderr;
// commander's refusals of a command line take the same shape.
import { ERROR_CODES, type ErrorCode, HttpError, LeadError } from '../api/errors.js';

/** One failure as cli.ts renders it, text or JSON. */
export interface Failure {
  exit: number;
  code: ErrorCode;
  message: string;
  hint?: string | undefined;
  status?: number;
  partialFile?: string;
}

export function failureOf(error: unknown): Failure {
  const partialFile = (error as { partialFile?: unknown } | null)?.partialFile;
  const partial = typeof partialFile === 'string' ? { partialFile } : {};
  if (error instanceof LeadError) {
    const status = error instanceof HttpError ? { status: error.status } : {};
    const { exitCode: exit, code, message } = error;
    return { exit, code, message, hint: error.cliHint ?? error.hint, ...status, ...partial };
  }
  const message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  const hint = 'please report it; --verbose shows the details';
  return { exit: 1, code: 'internal', message, hint, ...partial };
}

/** The lines a person reads: what happened, what to do, where the rows received are. */
export function failureLines(failure: Failure): string[] {
  return [
    `leadctl: ${failure.message}`,
    ...(failure.hint ? [failure.hint] : []),
    ...(failure.partialFile ? [`the output received so far is in ${failure.partialFile}`] : []),
  ];
}

/** cli.md's JSON error: `{"error":{"exit":3,"code":"no_api_key","message":"…","hint":"…"}}`. */
export function failureJson(failure: Failure): string {
  return JSON.stringify({ error: failure });
}

/** Words into lines of at most `width` columns; a continuation is indented two. A longer word stays whole. */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}

/** Set by the output layer, so every failed run that wrote rows says where (a frozen error goes without). */
export function notePartialFile(error: unknown, path: string): void {
  if (typeof error === 'object' && error !== null) Reflect.set(error, 'partialFile', path);
}

// commander's refusals in the contract's shape: `leadctl: <what>` and one hint line. Its messages are
// fixed strings in commander 14 (lib/command.js), read back here into the option or argument they
// name, so that the line says `--radius` rather than '-r, --radius <miles>'.
/** commander's codes, as ERROR_CODES names them. */
const COMMANDER_CODES: Record<string, ErrorCode> = {
  'commander.unknownCommand': 'unknown_command',
  'commander.unknownOption': 'unknown_option',
  'commander.invalidArgument': 'invalid_argument',
  'commander.optionMissingArgument': 'missing_argument',
  'commander.missingArgument': 'missing_argument',
  'commander.missingMandatoryOptionValue': 'missing_argument',
  'commander.conflictingOption': 'conflicting_options',
  'commander.excessArguments': 'too_many_arguments',
};

/** A hint for an option whose refusal says more than its range: a habit from another CLI. */
const OPTION_HINTS: Record<string, string> = {
  '--limit': '--limit is the page size (at most 100 a request); for more items use --max-items <n> or --all',
};

/** `commandPath`, set by program.ts: the words of the command that refused the line ('' for the program). */
export function commandLineFailure(failure: {
  code: string;
  message: string;
  commandPath?: string;
}): Failure {
  const code = COMMANDER_CODES[failure.code] ?? 'usage';
  const [first = '', ...rest] = failure.message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const help = `see: leadctl${failure.commandPath ? ` ${failure.commandPath}` : ''} --help`;
  const said = (message: string, hint = help): Failure => ({
    exit: ERROR_CODES[code][0],
    code,
    message,
    hint,
  });

  const invalid = /^option '(.+?)' argument '(.*)' is invalid\. ([\s\S]*)$/.exec(first);
  if (invalid) {
    const flag = longFlag(invalid[1] ?? '');
    return said(`invalid ${flag} '${invalid[2]}': ${expectation(invalid[3] ?? '')}`, OPTION_HINTS[flag]);
  }
  const invalidArgument = /^command-argument value '(.*)' is invalid for argument '(.+?)'\. ([\s\S]*)$/.exec(
    first,
  );
  if (invalidArgument) {
    const [, value, name, reason] = invalidArgument;
    return said(`invalid <${name}> '${value}': ${expectation(reason ?? '')}`);
  }
  const missingValue = /^option '(.+?)' argument missing$/.exec(first);
  if (missingValue) {
    const flags = missingValue[1] ?? '';
    const placeholder = /(<[^>]+>)/.exec(flags)?.[1] ?? 'a value';
    return said(`${longFlag(flags)} needs a value: ${longFlag(flags)} ${placeholder}`);
  }
  const unknown = /^unknown (option|command) '(.+)'$/.exec(first);
  if (unknown)
    return said(`unknown ${unknown[1]} '${unknown[2]}'`, suggestion && `did you mean ${suggestion}?`);
  const conflict = /^option '(.+?)' cannot be used with option '(.+?)'$/.exec(first);
  if (conflict)
    return said(`${longFlag(conflict[1] ?? '')} cannot be used with ${longFlag(conflict[2] ?? '')}`);
  const excess = /^too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(
    first,
  );
  if (excess) {
    const [, name, expected, got] = excess;
    const takes = expected === '0' ? 'takes no arguments' : `takes at most ${expected}`;
    return said(`${name ?? 'leadctl'} ${takes}, got ${got}`);
  }
  const missingArgument = /^missing required argument '(.+)'$/.exec(first);
  if (missingArgument) return said(`missing <${missingArgument[1]}>`);
  const mandatory = /^required option '(.+)' not specified$/.exec(first);
  if (mandatory) return said(`${longFlag(mandatory[1] ?? '')} is required`);
  return said(first.replace(/\.$/, ''));
}

/** '-r, --radius <miles>' -> '--radius'; a short-only flag stays as it is. */
function longFlag(flags: string): string {
  const names = flags.split(/[ ,|]+/).filter((part) => part.startsWith('-'));
  return names.find((name) => name.startsWith('--')) ?? names[0] ?? flags;
}

/** A parser's "expected a whole number from 1 to 50." or commander's "Allowed choices are a, b." */
function expectation(reason: string): string {
  const choices = /^Allowed choices are (.+?)\.?$/.exec(reason.trim());
  if (choices) return `expected one of ${choices[1]}`;
  return reason.trim().replace(/\.$/, '');
}
