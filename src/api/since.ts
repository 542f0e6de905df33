// `--since <when>`: an absolute ISO date or date-time, or a span back from now (`24h`, `7d`).
// A date alone means midnight UTC, and a date-time without `Z` or an offset is read as UTC too: the
// API's timestamps are UTC, and one rule for every zone-less form is easier to remember than two.

import { UsageError } from './errors.js';
import { oneLine } from './server-message.js';

const SPAN_UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const SPAN = /^(\d{1,9})([smhdw])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const ACCEPTED_FORMS =
  'use an ISO date (2026-11-01, read as midnight UTC), an ISO date-time (2026-11-01T09:30:00Z, ' +
  '2026-11-01T09:30+02:00; without Z or an offset it is read as UTC), or a span back from now: ' +
  '90s, 30m, 24h, 7d, 2w';

export function parseSince(text: string, nowMs: number): Date {
  const value = text.trim();
  const parsed = parseSpan(value, nowMs) ?? parseDate(value) ?? parseDateTime(value);
  if (parsed === undefined || Number.isNaN(parsed.getTime())) {
    throw new UsageError(`invalid \`since\` value "${oneLine(text, 60)}"`, ACCEPTED_FORMS);
  }
  return parsed;
}

function parseSpan(value: string, nowMs: number): Date | undefined {
  const match = SPAN.exec(value.toLowerCase());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unitMs = SPAN_UNIT_MS[match[2] ?? ''];
  if (amount === 0 || unitMs === undefined) return undefined;
  return new Date(nowMs - amount * unitMs);
}

function parseDate(value: string): Date | undefined {
  const match = DATE.exec(value);
  if (!match) return undefined;
  return utcDate(Number(match[1]), Number(match[2]), Number(match[3]), 0, 0, 0, 0);
}

function parseDateTime(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone = 'Z'] = match;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = utcDate(
    Number(year),
    Number(month),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    ms,
  );
  const offsetMinutes = parseOffsetMinutes(zone);
  if (local === undefined || offsetMinutes === undefined) return undefined;
  // 09:30+02:00 is 07:30 UTC: subtract the offset.
  return new Date(local.getTime() - offsetMinutes * 60_000);
}

function parseOffsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (digits.length !== 2 && digits.length !== 4) return undefined;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** Date.UTC silently rolls 2026-02-30 over to March: rebuild and compare to refuse such dates. */
function utcDate(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): Date | undefined {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  const sameFields =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return sameFields ? date : undefined;
}
