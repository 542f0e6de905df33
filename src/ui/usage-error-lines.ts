// commander's usage errors in the contract's shape: `leadctl: <what>` and at most one hint line, where
// commander itself would print its own wording plus "Run with --help for usage." (exit 2 either way).
// commander's messages are fixed strings in commander 14 (lib/command.js); each is read back here into
// the option or argument it names, so that the line says `--radius` rather than '-r, --radius <miles>'.

export interface CommandLineFailure {
  /** commander's code: commander.unknownOption, commander.invalidArgument, ... */
  code: string;
  /** commander's message, `error: ...` and, for a typo, `\n(Did you mean ...?)`. */
  message: string;
  /** The words of the command that refused the line (`search`, `config set`); '' for the program. */
  commandPath: string;
}

/** A hint for an option whose refusal says more than its range: a habit from another CLI. */
const OPTION_HINTS: Record<string, string> = {
  '--limit': '--limit is the page size (at most 100 a request); for more items use --max-items <n> or --all',
};

export function commandLineErrorLines(failure: CommandLineFailure): string[] {
  const [first = '', ...rest] = failure.message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const help = `see: leadctl${failure.commandPath ? ` ${failure.commandPath}` : ''} --help`;
  const lines = (what: string, hint: string | undefined = help) => [`leadctl: ${what}`, hint];

  const invalid = /^option '(.+?)' argument '(.*)' is invalid\. ([\s\S]*)$/.exec(first);
  if (invalid) {
    const flag = longFlag(invalid[1] ?? '');
    const value = invalid[2] ?? '';
    return lines(`invalid ${flag} '${value}': ${expectation(invalid[3] ?? '')}`, OPTION_HINTS[flag] ?? help);
  }
  const invalidArgument = /^command-argument value '(.*)' is invalid for argument '(.+?)'\. ([\s\S]*)$/.exec(
    first,
  );
  if (invalidArgument) {
    const [, value, name, reason] = invalidArgument;
    return lines(`invalid <${name}> '${value}': ${expectation(reason ?? '')}`);
  }
  const missingValue = /^option '(.+?)' argument missing$/.exec(first);
  if (missingValue) {
    const flags = missingValue[1] ?? '';
    const placeholder = /(<[^>]+>)/.exec(flags)?.[1] ?? 'a value';
    return lines(`${longFlag(flags)} needs a value: ${longFlag(flags)} ${placeholder}`);
  }
  const unknownOption = /^unknown option '(.+)'$/.exec(first);
  if (unknownOption) {
    return lines(`unknown option '${unknownOption[1]}'`, suggestion ? `did you mean ${suggestion}?` : help);
  }
  const unknownCommand = /^unknown command '(.+)'$/.exec(first);
  if (unknownCommand) {
    return lines(`unknown command '${unknownCommand[1]}'`, suggestion ? `did you mean ${suggestion}?` : help);
  }
  const conflict = /^option '(.+?)' cannot be used with option '(.+?)'$/.exec(first);
  if (conflict) {
    return lines(`${longFlag(conflict[1] ?? '')} cannot be used with ${longFlag(conflict[2] ?? '')}`);
  }
  const excess = /^too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(
    first,
  );
  if (excess) {
    const [, name, expected, got] = excess;
    const takes = expected === '0' ? 'takes no arguments' : `takes at most ${expected}`;
    return lines(`${name ?? 'leadctl'} ${takes}, got ${got}`);
  }
  const missingArgument = /^missing required argument '(.+)'$/.exec(first);
  if (missingArgument) return lines(`missing <${missingArgument[1]}>`);
  const mandatory = /^required option '(.+)' not specified$/.exec(first);
  if (mandatory) return lines(`${longFlag(mandatory[1] ?? '')} is required`);
  return lines(first.replace(/\.$/, ''));
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
