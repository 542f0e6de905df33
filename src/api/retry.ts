// The retry policy of docs/retries.md: pure functions that read waits and decide, and one loop that runs
// attempts and sleeps through a Clock (so tests never really wait); 429s have their own count of waits.
import { oneLine } from '../text/terminal-text.js';
import { type Hints, hints, NetworkError, RateLimitedError } from './errors.js';
import { extractServerMessage, parseJsonBody, rateLimitHints, serverErrorFor } from './http-errors.js';
import type { RawResponse } from './parse-response.js';
import { RateLimitBodySchema, RetryAfterHolderSchema } from './schemas.js';
import type { Clock } from './timestamp.js';

export type WaitReason = 'rate-limited' | 'server-error' | 'network';

export interface WaitEvent {
  reason: WaitReason;
  waitMs: number;
  /** The attempt (1-based) that failed and is followed by this wait. */
  attempt: number;
  until: Date;
  /** The HTTP status that caused the wait; absent for network failures. */
  status?: number;
  /** The failure in a few words for a notice: "HTTP 503", "connection reset", "timeout". */
  failure: string;
  /** Which retry of its budget this is (1-based), and that budget: "retry 1 of 3". */
  retry: number;
  maxRetries: number;
}

export type AttemptOutcome<T> =
  | { kind: 'success'; value: T }
  | { kind: 'rate-limited'; response: RawResponse; retryAfterHeader?: string | undefined }
  | { kind: 'server-error'; response: RawResponse; retryAfterHeader?: string | undefined }
  | { kind: 'network'; error: NetworkError; final?: boolean };

export type FailedOutcome = Exclude<AttemptOutcome<unknown>, { kind: 'success' }>;

export interface RetryPolicy {
  /** Retries for 5xx and network failures (not counting the first attempt). */
  retries: number;
  /** How many 429 waits before giving up. */
  rateLimitWaits: number;
  /** The longest single wait; a 429 asking for more stops at once. */
  maxWaitMs: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  random: () => number;
  /** Decides each 429 wait in place of `maxWaitMs` and `rateLimitWaits`. */
  onRateLimit?: ((wait: RateLimitWait) => boolean | Promise<boolean>) | undefined;
}

/** A 429 the policy could wait out. */
export interface RateLimitWait {
  /** How long the client would wait before sending the call again. */
  waitMs: number;
  /** When the server said the limit resets, if it said in a form the client reads. */
  resetAt: Date | undefined;
  /** How many 429s this call has already waited out. */
  waits: number;
  serverMessage: string | undefined;
}

/** How many retries of each budget have been spent so far. */
export interface RetryCounts {
  retries: number;
  rateLimitWaits: number;
}

export type RetryDecision =
  /** `declined`: the error if onRateLimit chooses not to wait. */
  | { retry: true; waitMs: number; reason: WaitReason; declined?: RateLimitedError }
  | { retry: false; error: Error };

const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/** Whether and how long to wait after a failed attempt. `attempts` counts attempts made so far. */
export function decideRetry(
  outcome: FailedOutcome,
  counts: RetryCounts,
  policy: RetryPolicy,
  nowMs: number,
  attempts: number,
): RetryDecision {
  const backoff = (n: number) => backoffDelay(n, policy.random, policy.backoffBaseMs, policy.backoffCapMs);
  if (outcome.kind === 'rate-limited') return decideRateLimited(outcome, counts, policy, nowMs, backoff);
  if (outcome.kind === 'network') {
    const { error } = outcome;
    // final: the request may have reached the server and must not be sent again on its own.
    if (error.kind === 'tls' || outcome.final) return { retry: false, error };
    if (counts.retries >= policy.retries) return { retry: false, error: afterAttempts(error, attempts) };
    return { retry: true, waitMs: backoff(counts.retries + 1), reason: 'network' };
  }
  const { response } = outcome;
  if (!RETRYABLE_STATUSES.has(response.status) || counts.retries >= policy.retries) {
    return { retry: false, error: serverErrorFor(response, attempts) };
  }
  const askedAt =
    response.status === 503 ? parseRetryAfterHeader(outcome.retryAfterHeader, nowMs) : undefined;
  if (askedAt !== undefined) {
    const waitMs = Math.max(0, askedAt - nowMs);
    if (waitMs > policy.maxWaitMs) {
      const note = `it asks to retry ${describeDuration(waitMs)}, longer than the longest wait allowed`;
      return { retry: false, error: serverErrorFor(response, attempts, note) };
    }
    return { retry: true, waitMs, reason: 'server-error' };
  }
  return { retry: true, waitMs: backoff(counts.retries + 1), reason: 'server-error' };
}

function decideRateLimited(
  outcome: Extract<FailedOutcome, { kind: 'rate-limited' }>,
  counts: RetryCounts,
  policy: RetryPolicy,
  nowMs: number,
  backoff: (n: number) => number,
): RetryDecision {
  const { response } = outcome;
  const serverMessage = extractServerMessage(response.body, response.contentType);
  const info = { status: response.status, serverMessage };
  const head = `rate limit reached${serverMessage ? ` (${serverMessage})` : ''}`;
  const limited = (message: string, facts: Hints & { resetAt?: Date | undefined; rawRetryAfter?: string }) =>
    new RateLimitedError(message, { ...info, ...facts });
  const fromBody = parseRetryAfterValue(
    findRetryAfter(parseJsonBody(response.body, response.contentType)),
    nowMs,
  );
  if (fromBody?.kind === 'unreadable') {
    const said = rateLimitHints(undefined, policy.maxWaitMs, nowMs);
    const message = `${head}; the server says retry after "${fromBody.raw}"`;
    return { retry: false, error: limited(message, { rawRetryAfter: fromBody.raw, ...said }) };
  }
  const at = fromBody?.at ?? parseRetryAfterHeader(outcome.retryAfterHeader, nowMs);
  const resetAt = at === undefined ? undefined : new Date(at);
  if (resetAt === undefined && policy.maxWaitMs <= 0) {
    const message = `${head}; the server did not say when to retry, and waiting is off (a longest wait of 0)`;
    const said = hints((o) => `to wait out such limits, raise ${o.maxWait} above 0`);
    return { retry: false, error: limited(message, said) };
  }
  // Never less than the normal backoff (a reset already past would otherwise be retried at once, over
  // and over), and without a time from the server never beyond --max-wait.
  const backoffMs = Math.min(backoff(counts.rateLimitWaits + 1), policy.maxWaitMs);
  const waitMs = at === undefined ? backoffMs : Math.max(backoffMs, at - nowMs);
  const when = resetAt ? `the server allows more requests ${describeReset(resetAt, nowMs)}` : '';
  if (policy.onRateLimit) {
    const message = `${head}: onRateLimit chose not to wait${when && `; ${when}`}`;
    const declined = limited(message, { resetAt, hint: 'try again later' });
    return { retry: true, waitMs, reason: 'rate-limited', declined };
  }
  if (waitMs > policy.maxWaitMs && resetAt) {
    const said = rateLimitHints(resetAt, policy.maxWaitMs, nowMs);
    return { retry: false, error: limited(`${head}: ${when}`, { resetAt, ...said }) };
  }
  if (counts.rateLimitWaits >= policy.rateLimitWaits) {
    const message = `${head}: still limited after ${counts.rateLimitWaits} waits${when && `; ${when}`}`;
    const said = rateLimitHints(undefined, policy.maxWaitMs, nowMs);
    return { retry: false, error: limited(message, { resetAt, ...said }) };
  }
  return { retry: true, waitMs, reason: 'rate-limited' };
}

/** A network failure's kind in a few words (also the CLI's, for a proxy's failure). */
export const NETWORK_FAILURES: Record<string, string> = {
  refused: 'connection refused',
  reset: 'connection reset',
  timeout: 'timeout',
  dns: 'DNS lookup failed',
  unreachable: 'network unreachable',
};

function describeFailure(outcome: FailedOutcome): string {
  if (outcome.kind !== 'network') return `HTTP ${outcome.response.status}`;
  return NETWORK_FAILURES[outcome.error.kind] ?? 'network error';
}

function afterAttempts(error: NetworkError, attempts: number): NetworkError {
  if (attempts <= 1) return error;
  const { code, hint, cliHint, cause } = error;
  return new NetworkError(`${error.message} after ${attempts} attempts`, error.kind, {
    code,
    hint,
    cliHint,
    cause,
  });
}

/**
 * Runs attempts until one succeeds or the policy gives up. Errors the attempt throws (4xx, protocol,
 * the caller's abort) pass straight through: they are never retried. Sleeps reject when `signal` aborts.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<AttemptOutcome<T>>,
  policy: RetryPolicy,
  clock: Clock,
  hooks: { onWait?(event: WaitEvent): void } = {},
  signal?: AbortSignal,
): Promise<T> {
  const counts: RetryCounts = { retries: 0, rateLimitWaits: 0 };
  for (let n = 1; ; n++) {
    signal?.throwIfAborted();
    const outcome = await attempt(n);
    if (outcome.kind === 'success') return outcome.value;
    const decision = decideRetry(outcome, counts, policy, clock.now(), n);
    if (!decision.retry) throw decision.error;
    if (decision.declined && policy.onRateLimit) {
      const { resetAt, serverMessage } = decision.declined;
      const wait = { waitMs: decision.waitMs, resetAt, waits: counts.rateLimitWaits, serverMessage };
      const yes = await policy.onRateLimit(wait);
      signal?.throwIfAborted();
      if (!yes) throw decision.declined;
    }
    const rateLimited = decision.reason === 'rate-limited';
    const retry = rateLimited ? ++counts.rateLimitWaits : ++counts.retries;
    hooks.onWait?.({
      reason: decision.reason,
      waitMs: decision.waitMs,
      attempt: n,
      until: new Date(clock.now() + decision.waitMs),
      ...(outcome.kind === 'network' ? {} : { status: outcome.response.status }),
      failure: describeFailure(outcome),
      retry,
      maxRetries: rateLimited ? policy.rateLimitWaits : policy.retries,
    });
    await clock.sleep(decision.waitMs, signal);
  }
}

/** The last moment a Date can hold (±8.64e15 ms): a time beyond it is no time at all. */
const LAST_DATE_MS = 8.64e15;

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;
const UNIX_MS_ABOVE = 1e12;
const UNIX_SECONDS_ABOVE = 1e9;

export type RetryAfterValue = { kind: 'at'; at: number } | { kind: 'unreadable'; raw: string };

/**
 * A body's retryAfter as an absolute time. The spec says Unix seconds; servers also send Unix
 * milliseconds or seconds to wait, told apart by size: > 1e12 ms, > 1e9 Unix seconds, else a wait.
 */
export function parseRetryAfterValue(value: unknown, nowMs: number): RetryAfterValue | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMERIC.test(value)
        ? Number(value)
        : NaN;
  const at = !Number.isFinite(n)
    ? Number.NaN
    : n > UNIX_MS_ABOVE
      ? n
      : n > UNIX_SECONDS_ABOVE
        ? n * 1000
        : nowMs + Math.max(0, n) * 1000;
  // NaN-like text, Infinity, or a time past the calendar's end (1e300): quoted, never waited on.
  if (!(Math.abs(at) <= LAST_DATE_MS)) {
    const raw =
      typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
    return { kind: 'unreadable', raw: oneLine(raw, 60) };
  }
  return { kind: 'at', at };
}

/** `retryAfter` (or `retry_after`) at the top level, or inside an `error` or `detail` object. */
export function findRetryAfter(body: unknown): unknown {
  const parsed = RateLimitBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  for (const place of [parsed.data, parsed.data.error, parsed.data.detail]) {
    const holder = RetryAfterHolderSchema.safeParse(place).data;
    const value = holder?.retryAfter ?? holder?.retry_after;
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** A Retry-After header (seconds, or an HTTP date) as an absolute time in ms; none when unreadable. */
export function parseRetryAfterHeader(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const at = /^\s*\d+(\.\d+)?\s*$/.test(value) ? nowMs + Number(value) * 1000 : Date.parse(value);
  return Math.abs(at) <= LAST_DATE_MS ? at : undefined;
}

/** Exponential backoff with full jitter: a random wait below min(cap, base * 2^(attempt-1)). */
export function backoffDelay(attempt: number, random: () => number, baseMs = 500, capMs = 8000): number {
  return random() * Math.min(capMs, baseMs * 2 ** (attempt - 1));
}

/** "at 2026-11-23 01:00 local time (00:00 UTC), in 7h 12m". */
export function describeReset(resetAt: Date, nowMs: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${resetAt.getFullYear()}-${pad(resetAt.getMonth() + 1)}-${pad(resetAt.getDate())} ${pad(resetAt.getHours())}:${pad(resetAt.getMinutes())}`;
  const utc = `${pad(resetAt.getUTCHours())}:${pad(resetAt.getUTCMinutes())} UTC`;
  return `at ${local} local time (${utc}), ${describeDuration(resetAt.getTime() - nowMs)}`;
}

/** "in 7h 12m", "in 45s", "in 2d 3h"; "now" when the time has passed. */
export function describeDuration(ms: number): string {
  if (ms <= 0) return 'now';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `in ${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `in ${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `in ${h}h ${m % 60}m`;
  return `in ${Math.floor(h / 24)}d ${h % 24}h`;
}
