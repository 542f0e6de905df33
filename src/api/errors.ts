// Typed errors and their one fact sheet. Each error knows its exit code (`leadctl help exit-codes`), a stable
// snake_case `code` for programs, and what to do about it for each reader: `hint` for a program using
// the library (its options, in backticks), `cliHint` for a person at leadctl (flags and commands).
// Only cli.ts turns an error into an exit code, lines or a JSON object, all from the same fields.
import { SecretMask } from '../text/secrets.js';

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  rateLimited: 5,
  unavailable: 6,
  protocol: 7,
  interrupted: 130,
} as const;

/**
 * Every error code, its exit code and when it happens: what `leadctl help --json` and docs/library.md
 * list. The first code of an exit code is the one an error gets when it names none.
 */
export const ERROR_CODES = {
  internal: [1, 'an unexpected failure, or output that cannot be written (a full disk)'],
  usage: [2, 'a bad flag, argument, config value or input file, refused before any request'],
  unknown_command: [2, 'a command line naming no command'],
  unknown_option: [2, 'an option the command does not take'],
  invalid_argument: [2, 'a value out of range or not among the choices'],
  missing_argument: [2, 'an argument or option value left out'],
  conflicting_options: [2, 'two options that cannot be used together'],
  too_many_arguments: [2, 'more arguments than the command takes'],
  no_base_url: [2, 'no API base URL configured'],
  request_rejected: [2, '400, 422 or another 4xx: the server refused the request itself'],
  not_found: [2, '404: usually a base URL that is not the API'],
  unauthorized: [3, '401: the server refused the API key'],
  no_api_key: [3, 'no API key configured'],
  forbidden: [4, '403: the account is deactivated, or its plan has no API access'],
  rate_limited: [5, '429 whose wait is longer than allowed, or whose waits ran out'],
  max_requests: [5, 'the run stopped at its --max-requests cap'],
  unavailable: [6, 'the server or the network failed after the retries'],
  server_error: [6, '5xx after the retries'],
  connection_refused: [6, 'nothing answered at the address'],
  connection_reset: [6, 'the connection closed before the answer was complete'],
  timeout: [6, 'no answer within the timeout'],
  dns_failed: [6, 'the host name did not resolve'],
  tls_failed: [6, 'the secure connection failed (certificate, or not TLS)'],
  network_unreachable: [6, 'no route to the host'],
  sent_without_answer: [
    6,
    'a search or write was sent and not answered: it may have run, and was not sent again',
  ],
  bad_response: [7, 'the server answered something that is not a valid response'],
  interrupted: [130, 'Ctrl-C, SIGTERM or SIGHUP stopped the run (exit 130, 143 or 129)'],
  aborted: [130, "the call's AbortSignal was aborted"],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

function defaultCode(exitCode: number): ErrorCode {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];
  return (
    codes.find((code) => ERROR_CODES[code][0] === exitCode) ?? (exitCode > 128 ? 'interrupted' : 'internal')
  );
}

/** What an error says beside its message. */
export interface ErrorFacts {
  /** Default: the first code of the exit code in ERROR_CODES. */
  code?: ErrorCode | undefined;
  /** What a program using the library can do. */
  hint?: string | undefined;
  /** What a person running leadctl can do; `hint` when the two are the same. */
  cliHint?: string | undefined;
  cause?: unknown;
}

/** The signals that stop a run cleanly, and their exit codes (128 + the signal's number, as shells report). */
export const INTERRUPT_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type InterruptSignal = keyof typeof INTERRUPT_EXIT;

export class LeadError extends Error {
  readonly exitCode: number;
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  /** The CLI's words for the same hint (leadctl's session adds what it knows, such as the key's source). */
  cliHint: string | undefined;
  /** The request that failed (set by LeadClient on every error of a call; never contains the key). */
  url: string | undefined;
  /** How many HTTP attempts the call made before it failed (0 when none was sent). */
  attempts: number | undefined;
  /** The last response's headers, when there was a response. */
  headers: Record<string, string> | undefined;
  /** How long the server asked to wait (a 429's reset or a Retry-After), in milliseconds from the failure. */
  retryAfterMs: number | undefined;
  /** The last answer's request id (`X-Request-Id` or a common variant): quote it to the API's support. */
  requestId: string | undefined;

  /** Give `exitCode` or `code` (or both): each defaults from the other through ERROR_CODES. */
  constructor(message: string, options: ErrorFacts & { exitCode?: number }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? (options.code ? ERROR_CODES[options.code][0] : ExitCode.internal);
    this.code = options.code ?? defaultCode(this.exitCode);
    this.hint = options.hint;
    this.cliHint = options.cliHint;
  }
}

/** A hint in each face's words: from hints(), or one text that suits both. */
export type Hints = Pick<ErrorFacts, 'hint' | 'cliHint'>;

const asHints = (hint: string | Hints | undefined): Hints =>
  typeof hint === 'string' ? { hint } : (hint ?? {});

/** The names of what a user can change, as each face spells them. */
const LIBRARY_NAMES = {
  client: 'the client',
  baseUrl: '`baseUrl`',
  timeout: '`timeoutMs`',
  retries: '`retries`',
  maxWait: '`maxWaitMs`',
  maxBodyBytes: '`maxBodyBytes`',
};
const CLI_NAMES: typeof LIBRARY_NAMES = {
  client: 'leadctl',
  baseUrl: '--base-url',
  timeout: '--timeout',
  retries: '--retries',
  maxWait: '--max-wait',
  maxBodyBytes: 'LEADCTL_MAX_BODY_BYTES=<bytes>',
};

/** One hint written once, in both faces' words: `hint` names the library's options, `cliHint` the flags. */
export function hints(say: (names: typeof LIBRARY_NAMES) => string): Required<Hints> {
  return { hint: say(LIBRARY_NAMES), cliHint: say(CLI_NAMES) };
}

/** Bad flags, arguments, config values or input files: caught before any request. Exit 2. */
export class UsageError extends LeadError {
  constructor(message: string, hint?: string | Hints, facts: Pick<ErrorFacts, 'code' | 'cause'> = {}) {
    super(message, { code: 'usage', ...asHints(hint), ...facts, exitCode: ExitCode.usage });
  }
}

/** Fields shared by every error that came from an HTTP answer. */
export interface HttpErrorInfo extends Omit<ErrorFacts, 'cause'> {
  status: number;
  /** The server's own message, extracted from whatever body shape it used. */
  serverMessage?: string | undefined;
}

export class HttpError extends LeadError {
  readonly status: number;
  readonly serverMessage: string | undefined;

  constructor(message: string, exitCode: number, info: HttpErrorInfo) {
    super(message, { exitCode, ...info });
    this.status = info.status;
    this.serverMessage = info.serverMessage;
  }
}

/** No key configured, or 401. Exit 3. */
export class AuthError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.auth, info);
  }
}

/** 403: account deactivated, or the plan has no API access. Exit 4. */
export class ForbiddenError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.forbidden, info);
  }
}

/** 400, 422 and other 4xx the server used to refuse the request itself. Exit 2. */
export class ValidationError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.usage, { code: 'request_rejected', ...info });
  }
}

/** 404: almost always a --base-url that points somewhere other than the API. Exit 2. */
export class NotFoundError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.usage, { code: 'not_found', ...info });
  }
}

/** 429 whose wait is longer than --max-wait, or whose retries ran out. Exit 5. */
export class RateLimitedError extends HttpError {
  /** When the limit resets, if the server said so in a form we could read. */
  readonly resetAt: Date | undefined;
  /** A retryAfter value we could not read as a time ("tomorrow"), quoted in the message. */
  readonly rawRetryAfter: string | undefined;

  constructor(
    message: string,
    info: HttpErrorInfo & { resetAt?: Date | undefined; rawRetryAfter?: string | undefined },
  ) {
    super(message, ExitCode.rateLimited, info);
    this.resetAt = info.resetAt;
    this.rawRetryAfter = info.rawRetryAfter;
  }
}

/** 5xx after retries. Exit 6. */
export class ServerError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.unavailable, { code: 'server_error', ...info });
  }
}

const NETWORK_CODES: Record<string, ErrorCode> = {
  refused: 'connection_refused',
  reset: 'connection_reset',
  timeout: 'timeout',
  dns: 'dns_failed',
  tls: 'tls_failed',
  unreachable: 'network_unreachable',
};

/** DNS failure, refused, reset, timeout: after retries. Exit 6. */
export class NetworkError extends LeadError {
  /** A short machine-readable kind: 'timeout', 'refused', 'reset', 'dns', 'tls', 'unreachable'. */
  readonly kind: string;

  constructor(message: string, kind: string, facts: ErrorFacts = {}) {
    super(message, { code: NETWORK_CODES[kind] ?? 'unavailable', ...facts });
    this.kind = kind;
  }
}

/** The server answered something that is not a valid response (not JSON, wrong shape). Exit 7. */
export class ProtocolError extends LeadError {
  constructor(message: string, hint?: string | Hints) {
    super(message, { code: 'bad_response', ...asHints(hint) });
  }
}

/**
 * A call stopped by its caller's AbortSignal. Its `cause` is the signal's reason. Exit 130.
 * (A reason that is itself a LeadError, such as the CLI's InterruptedError, is rejected as it is.)
 */
export class AbortedError extends LeadError {
  constructor(
    message = 'the call was aborted',
    cause?: unknown,
    facts: { code?: ErrorCode; exitCode?: number } = {},
  ) {
    super(message, { code: 'aborted', ...facts, ...(cause === undefined ? {} : { cause }) });
  }
}

/** SIGINT (Ctrl-C), SIGTERM or SIGHUP (the terminal closed): exit 130, 143 or 129. */
export class InterruptedError extends AbortedError {
  constructor(readonly signal: InterruptSignal = 'SIGINT') {
    super(signal === 'SIGINT' ? 'interrupted' : `stopped by ${signal}`, undefined, {
      code: 'interrupted',
      exitCode: INTERRUPT_EXIT[signal],
    });
  }
}

/** What a call rejects with once its signal has aborted. */
export function abortErrorFor(reason: unknown): LeadError {
  return reason instanceof LeadError ? reason : new AbortedError('the call was aborted', reason);
}

/**
 * Calls `onAbort` with the reason if `signal` aborts before the returned `stop()`. Stopped, the listener
 * holds nothing: Node keeps a removed listener linked to its neighbours, so one that reached the old
 * generation kept every later listener, and all they held, from the young collections (a page each:
 * docs/performance.md, "The export near the floor").
 */
export function listenForAbort(
  signal: AbortSignal | undefined,
  onAbort: (reason: unknown) => void,
): () => void {
  if (!signal) return () => {};
  let pending: ((reason: unknown) => void) | undefined = onAbort;
  const listener = () => pending?.(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => {
    signal.removeEventListener('abort', listener);
    pending = undefined;
  };
}

/** A key the server echoed, masked wherever the error shows server text (and in a LeadError cause). */
export function maskKeyIn(error: LeadError, key: string): void {
  const mask = new SecretMask();
  mask.remember(key);
  const fields = error as unknown as Record<string, unknown>;
  for (const field of ['message', 'stack', 'serverMessage', 'rawRetryAfter']) {
    const text = fields[field];
    if (typeof text === 'string') fields[field] = mask.mask(text);
  }
  if (error.cause instanceof LeadError) maskKeyIn(error.cause, key);
}
