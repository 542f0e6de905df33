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
