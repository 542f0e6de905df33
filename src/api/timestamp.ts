// Reading a list item's time field (saved_at, created_at) as epoch milliseconds. Paging reads it for
// every item several times (judging pages, leaving out newer items, the written record), and
// `new Date(text)` costs ~300 ns a call. The API sends UTC ISO-8601 ("2026-11-20T10:22:33Z",
// maybe with fractions): that form is read digit by digit; anything else goes to Date, which settles
// every other form exactly as before.

import { oneLine } from '../text/terminal-text.js';
import { UsageError } from './errors.js';

const DIGIT_0 = 48;
/** "YYYY-MM-DDTHH:MM:SS" then optional ".fff…", then "Z". */
const MIN_LENGTH = 20;

export function timestampMs(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const fast = utcIsoMs(value);
    if (fast !== undefined) return fast;
  } else if (typeof value !== 'number') {
    return undefined;
  }
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** The fast path; undefined for anything it does not read exactly as Date would. */
function utcIsoMs(text: string): number | undefined {
  const length = text.length;
  if (length < MIN_LENGTH || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') {
    return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let ms = 0;
  if (length > MIN_LENGTH) {
    // ".f", ".ff", ".fff" or more digits: Date keeps milliseconds and drops the rest.
    if (text[19] !== '.' || length === MIN_LENGTH + 1) return undefined;
    const fraction = length - MIN_LENGTH - 1;
    for (let index = 0; index < fraction; index++) {
      const digit = text.charCodeAt(20 + index) - DIGIT_0;
      if (digit < 0 || digit > 9) return undefined;
      if (index < 3) ms += digit * 10 ** (2 - index);
    }
  }
  return utcMs(year, month, day, hour, minute, second, ms);
}

/** The number written by `count` ASCII digits from `start`, or -1. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Epoch ms (UTC); undefined for what Date.UTC would roll over (2026-02-30 into March, 24:00 into the
 * next day) and for years 0..99, which it reads as 1900..1999 (the fast path leaves those to Date).
 */
function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number | undefined {
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// The one place time passes. Retries and rate-limit waits sleep through a Clock so that tests can
// inject a fake one and never really wait.
export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

// `--since <when>`: an absolute ISO date or date-time, or a span back from now (`24h`, `7d`).
// A date alone means midnight UTC, and a date-time without `Z` or an offset is read as UTC too: the
// API's timestamps are UTC, and one rule for every zone-less form is easier to remember than two.
const SPAN_UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const SPAN = /^(\d{1,9})([smhdw])$/;
const SINCE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i;

const ACCEPTED_FORMS =
  'use an ISO date (2026-11-01, read as midnight UTC), an ISO date-time (2026-11-01T09:30:00Z, ' +
  '2026-11-01T09:30+02:00; without Z or an offset it is read as UTC), or a span back from now: ' +
  '90s, 30m, 24h, 7d, 2w';

export function parseSince(text: string, nowMs: number): Date {
  const value = text.trim();
  const parsed = parseSpan(value, nowMs) ?? parseDateTime(value);
  if (parsed === undefined || Number.isNaN(parsed.getTime())) {
    throw new UsageError(`invalid \`since\` value "${oneLine(text, 60)}"`, ACCEPTED_FORMS);
  }
  return parsed;
}

function parseSpan(value: string, nowMs: number): Date | undefined {
  const match = SPAN.exec(value.toLowerCase());
  const amount = Number(match?.[1]);
  if (!match || amount === 0) return undefined;
  return new Date(nowMs - amount * (SPAN_UNIT_MS[match[2] as string] as number));
}

function parseDateTime(value: string): Date | undefined {
  const match = SINCE_TIME.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour = 0, minute = 0, second = 0, fraction = ''] = match;
  const ms = utcMs(
    Number(year),
    Number(month),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  );
  const hours = Number(match[9] ?? 0);
  const minutes = Number(match[10] ?? 0);
  if (ms === undefined || hours > 23 || minutes > 59) return undefined;
  // 09:30+02:00 is 07:30 UTC: subtract the offset.
  return new Date(ms - (match[8] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000);
}
