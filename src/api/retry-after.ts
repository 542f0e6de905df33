// How long to wait before the next attempt: the 429 body's retryAfter in any position and unit, a
// Retry-After header, or backoff with full jitter; and how to say when a limit resets.

import { RateLimitBodySchema, RetryAfterHolderSchema } from './schemas.js';
import { oneLine } from './server-message.js';

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
