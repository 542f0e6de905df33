// The one warning a run gives when the server marks the API deprecated: the server's own notice,
// quoted, and the sunset date said as past or future, since those tell the user what to do and by when.
import type { DeprecationEvent } from '../api/client.js';

const DAY_MS = 86_400_000;

export function deprecationWarning(event: DeprecationEvent, nowMs: number): string {
  const parts = ['the server says this API is deprecated'];
  if (event.notice) parts[0] += `: "${event.notice}"`;
  const since = event.deprecation ? deprecatedSince(event.deprecation) : undefined;
  if (since) parts.push(`deprecated since ${since}`);
  if (event.sunset) parts.push(sunsetText(event.sunset, nowMs));
  return `${parts.join('; ')}.`;
}

/** RFC 9745 sends `@<unix seconds>`; older servers an HTTP date; `true` says nothing about when. */
function deprecatedSince(value: string): string | undefined {
  const unix = /^@(\d+)$/.exec(value.trim());
  const at = unix ? Number(unix[1]) * 1000 : Date.parse(value);
  return Number.isFinite(at) && /\d/.test(value) ? isoDate(at) : undefined;
}

/** "sunset 2026-08-01, in 12 days"; a past one "sunset 2026-01-01, 30 days ago: it may stop answering at any time". */
function sunsetText(value: string, nowMs: number): string {
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return `Sunset: ${value}`;
  const days = Math.round(Math.abs(at - nowMs) / DAY_MS);
  const span = days === 1 ? '1 day' : `${days} days`;
  if (days === 0) return `sunset ${isoDate(at)}, today`;
  if (at < nowMs) return `sunset ${isoDate(at)}, ${span} ago: it may stop answering at any time`;
  return `sunset ${isoDate(at)}, in ${span}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
