// What leadctl says about a failure, in the same words wherever it is said (stderr, an MCP tool error):
// `leadctl: <what happened>` and, where it helps, a second line with what to do.
//
// The library (src/api) names its own options in backticks (`baseUrl`, `maxWaitMs`), never a flag: a
// program embedding LeadClient has no --base-url. The CLI's hints are chosen here, by error kind, with
// what this run knows (which command ran, the --max-wait in force, where the key came from); any option
// name left in a library text is put as the flag that sets it.
import {
  AuthError,
  LeadError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from '../api/errors.js';

/** What the run that failed knows, for hints that name the right flag, profile or path. */
export interface RunFacts {
  /** The words of the command that ran: `api`, `leads`, `config set`. */
  command?: string;
  /** --max-wait in force, in seconds. */
  maxWaitSec?: number;
  /** What to do about a rejected key, given where this run's key came from. */
  rejectedKeyHint?: string;
  /** The proxy this run connects through (redacted), and the variable that set it. */
  proxy?: { url: string; from: string };
}

// A 401 or a 429 is created deep in the client, which knows nothing of settings; the session that chose
// them says here what they were, so the hint names the source to fix (as the key mask in secrets.ts).
const runFacts: RunFacts = {};

export function explainRun(facts: RunFacts): void {
  Object.assign(runFacts, facts);
}

/** What to do about a rejected key, given where this run's key came from. */
export function explainRejectedKey(hint: string): void {
  runFacts.rejectedKeyHint = hint;
}

/** The library's option names (as it writes them, in backticks) and the flag that sets each. */
const FLAG_FOR_OPTION: Record<string, string> = {
  baseUrl: '--base-url',
  timeoutMs: '--timeout',
  maxWaitMs: '--max-wait',
  retries: '--retries',
  since: '--since',
  maxItems: '--max-items',
  concurrency: '--concurrency',
  maxBodyBytes: 'LEADCTL_MAX_BODY_BYTES',
};

/** A 429 that resets further away than this is not worth waiting for: the hint says when, not "raise". */
const WORTH_WAITING_MS = 60 * 60 * 1000;

export function errorLines(error: unknown, facts: RunFacts = runFacts, nowMs = Date.now()): string[] {
  if (error instanceof LeadError) {
    const proxied = viaProxy(error, facts);
    if (proxied) return proxied;
    const hint = cliHint(error, facts, nowMs) ?? error.hint;
    const message = asFlags(error.message);
    return hint ? [`leadctl: ${message}`, asFlags(hint)] : [`leadctl: ${message}`];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [`leadctl: unexpected error: ${message}`];
}

/** The CLI's own second line for an error kind, or undefined to keep the library's (flags put in). */
function cliHint(error: LeadError, facts: RunFacts, nowMs: number): string | undefined {
  if (error instanceof AuthError && error.status === 401) return facts.rejectedKeyHint;
  if (error instanceof NotFoundError) {
    // `api <path>`: the user chose the path, and the server answered, so the path is what it lacks.
    if (facts.command === 'api') {
      return 'the server has no such path: the API serves leads, history and search (leadctl api leads)';
    }
    return 'check --base-url: leadctl appends /api/v1/... to it, so give the address the API is served from';
  }
  if (error instanceof RateLimitedError) {
    if (error.resetAt === undefined) return 'try again later';
    if (error.resetAt.getTime() - nowMs > WORTH_WAITING_MS) {
      return 'try again then; leadctl usage shows what this machine has sent today';
    }
    const now = facts.maxWaitSec === undefined ? '' : ` (now ${facts.maxWaitSec} s)`;
    return `wait until then, or raise --max-wait${now} to let leadctl wait`;
  }
  if (error instanceof ServerError) {
    return 'the service may be having trouble: try again later (--retries sets how often leadctl retries)';
  }
  if (error instanceof NetworkError) {
    if (error.kind === 'refused') return 'check --base-url, and that the server is running';
    if (error.kind === 'timeout')
      return 'the server is slow or unreachable: try again later, or raise --timeout';
    if (error.kind === 'dns') return 'check the host name in --base-url, and your network connection';
  }
  return undefined;
}

/**
 * Through a proxy, leadctl connects to the proxy alone: a refused connection, a failed lookup or an
 * unreachable network is the proxy's, not the API host's the client names.
 */
function viaProxy(error: LeadError, { proxy }: RunFacts): string[] | undefined {
  if (!proxy || !(error instanceof NetworkError) || !['refused', 'dns', 'unreachable'].includes(error.kind))
    return undefined;
  // "cannot reach api.example.com (connection refused) after 4 attempts": the reason and the count stay.
  const said = /^cannot reach \S+ (\(.*)$/.exec(error.message)?.[1] ?? `(${error.kind})`;
  return [
    `leadctl: cannot reach the proxy ${proxy.url} that ${proxy.from} names ${said}`,
    `check ${proxy.from}, and that the proxy is running; NO_PROXY lists hosts to reach directly`,
  ];
}

/** `baseUrl` -> --base-url: the option names a library text uses, as the flags a CLI user types. */
function asFlags(text: string): string {
  return text.replace(/`([A-Za-z]+)`/g, (whole, name: string) => FLAG_FOR_OPTION[name] ?? whole);
}

// Which partial file an error left behind: the output layer attaches it to the error that ended the
// run and the CLI's error renderer prints it, so every failed or interrupted run that wrote rows
// says where they are.
const partialFiles = new WeakMap<object, string>();

export function notePartialFile(error: unknown, path: string): void {
  if (typeof error === 'object' && error !== null) partialFiles.set(error, path);
}

export function partialFileOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? partialFiles.get(error) : undefined;
}

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
