// Reading a list item's time field (saved_at, created_at) as epoch milliseconds, as Date reads it.
import { oneLine } from '../text/terminal-text.js';
import { listenForAbort, UsageError } from './errors.js';

export function timestampMs(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
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
      const stopListening = listenForAbort(signal, (reason) => {
        clearTimeout(timer);
        reject(reason);
      });
      const timer = setTimeout(() => {
        stopListening();
        resolve();
      }, ms);
    }),
};

// `--since <when>` (docs/commands.md): an ISO date or date-time, or a span back from now (`24h`, `7d`).
// Every zone-less form is UTC, as the API's timestamps are: one rule is easier to remember than two.
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

type Eight<T> = [T, T, T, T, T, T, T, T];

function parseDateTime(value: string): Date | undefined {
  const match = SINCE_TIME.exec(value);
  if (!match) return undefined;
  const numbers = [1, 2, 3, 4, 5, 6, 9, 10].map((index) => Number(match[index] ?? 0));
  const [year, month, day, hour, minute, second, hours, minutes] = numbers as Eight<number>;
  // Refused rather than rolled over as Date.UTC would (02-30 into March, 24:00 into the next day), and
  // years 0..99, which Date.UTC reads as 19xx.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || hours > 23 || minutes > 59) return undefined;
  const ms = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offset = (match[8] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset);
}
