// The options of LeadClient and of each call, checked before anything is sent: a wrong one is a
// UsageError naming the option, never a TypeError from deep inside.

import { type LeadError, UsageError } from './errors.js';
import type { RateLimitWait, WaitEvent } from './retry.js';
import type { Clock } from './timestamp.js';

export interface AttemptEvent {
  method: string;
  /** Never contains the key: it travels only in the Authorization header. */
  url: string;
  /** 1-based. */
  attempt: number;
  status?: number;
  /** The answer's headers (names in lower case), when there was an answer. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  ms: number;
  error?: string;
  /**
   * Whether the request may have reached the server: true with any status; for a failure, whether
   * any byte was written (known for methods other than GET/HEAD, undefined for those).
   */
  sent?: boolean;
}

export interface ClientHooks {
  /** Right before each HTTP attempt is sent; a throw (a LeadError) refuses it, and nothing is sent. */
  beforeAttempt?(event: { method: string; url: string; attempt: number }): void;
  onAttempt?(event: AttemptEvent): void;
  onWait?(event: WaitEvent): void;
  /** Called at most once per client: the first response that carries any deprecation header. */
  onDeprecation?(event: DeprecationEvent): void;
  /** Every error a call fails with, once, before it is thrown (the key masked): to log it, or add to it. */
  onError?(error: LeadError): void;
}

/** The deprecation headers of one response, each one line of server text (sanitized, capped). */
export interface DeprecationEvent {
  /** `Deprecation`: `true`, `?1`, `@<unix seconds>` or an HTTP date. */
  deprecation?: string;
  /** `Sunset`: an HTTP date (RFC 8594), when the API stops answering. */
  sunset?: string;
  /** `X-Api-Deprecation-Notice`: the server's own words to its users. */
  notice?: string;
}

export interface LeadClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per attempt, headers and body together. Default 30 000. A call may set its own. */
  timeoutMs?: number;
  /** Retries for 5xx and network failures. Default 3. A call may set its own. */
  retries?: number;
  /** Longest single wait on a 429 (or a 503's Retry-After). Default 60 000. A call may set its own. */
  maxWaitMs?: number;
  /** Default `leadctl`; the CLI passes `leadctl/<version>`. */
  userAgent?: string;
  hooks?: ClientHooks;
  clock?: Clock;
  /** For backoff jitter. Default Math.random. */
  random?: () => number;
  /** The first retry waits up to this (full jitter), doubling each retry. Default 500. */
  backoffBaseMs?: number;
  /** No backoff wait is longer. Default 8000. */
  backoffCapMs?: number;
  /** Connections per origin of the client's own Agent. Default 16. Ignored with `dispatcher`. */
  connections?: number;
  /**
   * An undici Dispatcher to send through (a ProxyAgent, EnvHttpProxyAgent, or an Agent with custom
   * CAs in `connect`). The caller owns it: close() leaves it open.
   */
  dispatcher?: DispatcherLike;
  /**
   * The largest response body read, in bytes, after decompression; a larger one fails
   * (ProtocolError) once this much has arrived. Default 16 MiB (a page of 100 leads is about 30 KB).
   */
  maxBodyBytes?: number;
  /**
   * Sent with every request; a call's own `headers` win. Authorization, Idempotency-Key and
   * Accept-Encoding are refused (a UsageError): the client sets them (`apiKey`, `idempotencyKey`).
   */
  headers?: Record<string, string>;
  /** Told each request, answer, failure and wait, the key masked in every URL, header and body. */
  logger?: Logger;
  /**
   * Asked at each 429 the client could wait out, in place of `maxWaitMs` and the count of waits:
   * true (or a promise of it) waits `info.waitMs` and sends the call again, false rejects at once
   * with RateLimitedError. A 429 whose wait cannot be read is never waited on.
   */
  onRateLimit?(info: RateLimitInfo): boolean | Promise<boolean>;
}

/** `console` is one; a line of text, then its facts. */
export interface Logger {
  debug(message: string, details: Record<string, unknown>): void;
}

/** A 429 as `onRateLimit` sees it. */
export interface RateLimitInfo extends RateLimitWait {
  method: string;
  url: string;
  requestId: string | undefined;
}

/** A call's answer beside its typed result: `await client.listLeads(...).withResponse()`. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
}

/** What every call returns: a promise of its result, and of the result with its answer. */
export type ResponsePromise<T> = Promise<T> & {
  withResponse(): Promise<{ data: T; response: ResponseInfo }>;
};

/**
 * An undici Dispatcher (Agent, ProxyAgent, EnvHttpProxyAgent...), typed by the methods the client
 * calls, so that the public types need neither undici's declarations nor Node's.
 */
export interface DispatcherLike {
  dispatch(options: never, handler: never): boolean;
  close(): Promise<void>;
}

/** What each call may set for itself; the client's own options are the defaults. */
export interface CallOptions {
  /** Stops the call: it rejects with AbortedError (or the reason itself, when that is a LeadError). */
  signal?: AbortSignal;
  /** Per attempt, headers and body together. */
  timeoutMs?: number;
  /** Retries for 5xx and network failures. */
  retries?: number;
  /** Longest single wait on a 429 (or a 503's Retry-After). */
  maxWaitMs?: number;
  /** Sent as `Idempotency-Key` on every attempt of this call (a POST gets a random one otherwise). */
  idempotencyKey?: string;
  /** Over the client's `headers`, with the same refusals. */
  headers?: Record<string, string>;
}

type Check = (value: unknown) => boolean;

const positive: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const nonNegative: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const atLeastOne: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 1;
const fn: Check = (v) => typeof v === 'function';
const object: Check = (v) => typeof v === 'object' && v !== null;

const WANTS: Record<string, [Check, string]> = {
  timeoutMs: [positive, 'a number of milliseconds above 0'],
  retries: [count, 'a whole number, 0 or more'],
  maxWaitMs: [nonNegative, 'a number of milliseconds, 0 or more'],
  backoffBaseMs: [nonNegative, 'a number of milliseconds, 0 or more'],
  backoffCapMs: [nonNegative, 'a number of milliseconds, 0 or more'],
  connections: [atLeastOne, 'a whole number, 1 or more'],
  userAgent: [(v) => typeof v === 'string', 'a string'],
  hooks: [object, 'an object of hook functions'],
  clock: [
    (v) => object(v) && fn((v as { now?: unknown }).now) && fn((v as { sleep?: unknown }).sleep),
    'a Clock',
  ],
  random: [fn, 'a function returning a number in [0, 1)'],
  dispatcher: [
    (v) => object(v) && fn((v as DispatcherLike).dispatch),
    'an undici Dispatcher (Agent, ProxyAgent...)',
  ],
  logger: [(v) => object(v) && fn((v as Logger).debug), 'an object with a debug() method, such as console'],
  onRateLimit: [fn, 'a function returning true to wait'],
  signal: [(v) => v instanceof AbortSignal, 'an AbortSignal'],
  idempotencyKey: [
    (v) => typeof v === 'string' && /^[\x21-\x7e]{1,255}$/.test(v),
    '1 to 255 visible ASCII characters, such as a UUID',
  ],
};

const CALL_ONLY = ['signal', 'idempotencyKey'];

/** What the client alone sets, and where the caller sets it instead. */
const CLIENT_HEADERS: Record<string, string> = {
  authorization: 'the key goes in `apiKey`, where logs and errors mask it',
  'idempotency-key': 'give a call its own with the `idempotencyKey` call option',
  'accept-encoding': 'the client asks for gzip and br and decodes them itself, within `maxBodyBytes`',
};

function checkHeaders(headers: unknown, where: string): void {
  if (headers === undefined) return;
  if (!object(headers) || Array.isArray(headers))
    throw new UsageError(`${where}headers must be an object of names and values (got ${describe(headers)})`);
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const ours = CLIENT_HEADERS[name.toLowerCase()];
    if (ours) throw new UsageError(`${where}headers may not set ${name}`, ours);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string' || /[\0\r\n]/.test(value)) {
      throw new UsageError(
        `${where}headers: ${describe(name)} must be a header name with a one-line text value (got ${describe(value)})`,
      );
    }
  }
}

function checkEach(options: Record<string, unknown>, names: readonly string[], where: string): void {
  for (const name of names) {
    const value = options[name];
    if (value === undefined) continue;
    const [ok, wanted] = WANTS[name] as [Check, string];
    if (!ok(value)) throw new UsageError(`${where}${name} must be ${wanted} (got ${describe(value)})`);
  }
}

/** The constructor's options; maxBodyBytes is checked where it is read (parse-response.ts). */
export function checkClientOptions(options: unknown): asserts options is Record<string, unknown> {
  if (!object(options))
    throw new UsageError(`LeadClient options must be an object (got ${describe(options)})`);
  const given = options as Record<string, unknown>;
  if (typeof given.baseUrl !== 'string' || given.baseUrl.trim() === '') {
    throw new UsageError(
      `baseUrl is required: the address of the API, such as https://api.example.com (got ${describe(given.baseUrl)})`,
    );
  }
  if (given.apiKey !== undefined && typeof given.apiKey !== 'string') {
    throw new UsageError(`apiKey must be a string (got ${describe(given.apiKey)})`);
  }
  checkEach(
    given,
    Object.keys(WANTS).filter((name) => !CALL_ONLY.includes(name)),
    '',
  );
  checkHeaders(given.headers, '');
}

/** A call's own options (its second argument). */
export function checkCallOptions(options: unknown): CallOptions {
  if (options === undefined) return {};
  if (!object(options)) throw new UsageError(`call options must be an object (got ${describe(options)})`);
  checkEach(
    options as Record<string, unknown>,
    ['timeoutMs', 'retries', 'maxWaitMs', ...CALL_ONLY],
    'call option ',
  );
  checkHeaders((options as CallOptions).headers, 'call option ');
  return options as CallOptions;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'function' ? 'a function' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * A cap on the HTTP attempts one client may send (`--max-requests`, `leadctl mcp`'s caps): each attempt,
 * retries included since the server counts them too, is counted before it is sent; once the cap is
 * reached the beforeAttempt hook refuses the next, so nothing more is sent.
 */
export class RequestBudget {
  #sent = 0;

  /** `refusal` builds the error that stops the run, in the words of the command that set the cap. */
  constructor(
    readonly max: number,
    private readonly refusal: (max: number) => LeadError,
  ) {}

  get sent(): number {
    return this.#sent;
  }

  get remaining(): number {
    return this.max - this.#sent;
  }

  /** The client's beforeAttempt hook: synchronous, so requests running side by side never overspend. */
  readonly beforeAttempt = (): void => {
    if (this.#sent >= this.max) throw this.refusal(this.max);
    this.#sent += 1;
  };
}
