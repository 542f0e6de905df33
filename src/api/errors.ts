// Typed errors. Each knows its exit code (cli.md's table) and, where it helps, a hint: a second line
// telling the user what to do. Only cli.ts turns them into an exit code.

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

/** The signals that stop a run cleanly, and their exit codes (128 + the signal's number, as shells report). */
export const INTERRUPT_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type InterruptSignal = keyof typeof INTERRUPT_EXIT;

export class LeadError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;
  /** The request that failed (set by LeadClient on every error of a call; never contains the key). */
  url: string | undefined;
  /** How many HTTP attempts the call made before it failed (0 when none was sent). */
  attempts: number | undefined;
  /** The last response's headers, when there was a response. */
  headers: Record<string, string> | undefined;
  /** How long the server asked to wait (a 429's reset or a Retry-After), in milliseconds from the failure. */
  retryAfterMs: number | undefined;

  constructor(message: string, options: { exitCode: number; hint?: string; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode;
    this.hint = options.hint;
    this.url = undefined;
    this.attempts = undefined;
    this.headers = undefined;
    this.retryAfterMs = undefined;
  }
}

/** Bad flags, arguments, config values or input files: caught before any request. Exit 2. */
export class UsageError extends LeadError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.usage, ...(hint ? { hint } : {}) });
  }
}

/** Fields shared by every error that came from an HTTP answer. */
export interface HttpErrorInfo {
  status: number;
  /** The server's own message, extracted from whatever body shape it used. */
  serverMessage?: string | undefined;
  hint?: string | undefined;
}

export class HttpError extends LeadError {
  readonly status: number;
  readonly serverMessage: string | undefined;

  constructor(message: string, exitCode: number, info: HttpErrorInfo) {
    super(message, { exitCode, ...(info.hint ? { hint: info.hint } : {}) });
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
    super(message, ExitCode.usage, info);
  }
}

/** 404: almost always a --base-url that points somewhere other than the API. Exit 2. */
export class NotFoundError extends HttpError {
  constructor(message: string, info: HttpErrorInfo) {
    super(message, ExitCode.usage, info);
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
    super(message, ExitCode.unavailable, info);
  }
}

/** DNS failure, refused, reset, timeout: after retries. Exit 6. */
export class NetworkError extends LeadError {
  /** A short machine-readable kind: 'timeout', 'refused', 'reset', 'dns', 'other'. */
  readonly kind: string;

  constructor(message: string, kind: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.unavailable, ...options });
    this.kind = kind;
  }
}

/** The server answered something that is not a valid response (not JSON, wrong shape). Exit 7. */
export class ProtocolError extends LeadError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.protocol, ...(hint ? { hint } : {}) });
  }
}

/**
 * A call stopped by its caller's AbortSignal. Its `cause` is the signal's reason. Exit 130.
 * (A reason that is itself a LeadError, such as the CLI's InterruptedError, is rejected as it is.)
 */
export class AbortedError extends LeadError {
  constructor(message = 'the call was aborted', cause?: unknown, exitCode: number = ExitCode.interrupted) {
    super(message, { exitCode, ...(cause === undefined ? {} : { cause }) });
  }
}

/** SIGINT (Ctrl-C), SIGTERM or SIGHUP (the terminal closed): exit 130, 143 or 129. */
export class InterruptedError extends AbortedError {
  constructor(readonly signal: InterruptSignal = 'SIGINT') {
    super(signal === 'SIGINT' ? 'interrupted' : `stopped by ${signal}`, undefined, INTERRUPT_EXIT[signal]);
  }
}

/** What a call rejects with once its signal has aborted. */
export function abortErrorFor(reason: unknown): LeadError {
  return reason instanceof LeadError ? reason : new AbortedError('the call was aborted', reason);
}
