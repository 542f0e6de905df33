// Adding a run's counts to the ledger, finding one entry's numbers, and pruning: days are kept for
// this month and the last, months for a year, so the file stays a few kilobytes.
import type { Counts, Ledger, LedgerEntry } from './ledger-schema.js';
import { zeroCounts } from './ledger-schema.js';
import { utcMonthBefore } from './periods.js';

/** Which account on which server a count belongs to. */
export interface LedgerKey {
  profile: string;
  baseUrl: string;
}

export function addCounts(into: Counts, add: Counts): Counts {
  return {
    requests: into.requests + add.requests,
    searches: into.searches + add.searches,
    rateLimited: into.rateLimited + add.rateLimited,
  };
}

export function findEntry(ledger: Ledger, key: LedgerKey): LedgerEntry | undefined {
  return ledger.entries.find((entry) => entry.profile === key.profile && entry.baseUrl === key.baseUrl);
}

/** The run's counts per UTC day (`2026-11-23`) added to the key's entry; then old periods pruned. */
export function addRun(
  ledger: Ledger,
  key: LedgerKey,
  byDay: ReadonlyMap<string, Counts>,
  nowMs: number,
): Ledger {
  const entries = ledger.entries.map((entry) => ({
    ...entry,
    days: { ...entry.days },
    months: { ...entry.months },
  }));
  let entry = findEntry({ ...ledger, entries }, key);
  if (!entry) {
    entry = { profile: key.profile, baseUrl: key.baseUrl, days: {}, months: {} };
    entries.push(entry);
  }
  for (const [day, counts] of byDay) {
    const month = day.slice(0, 7);
    entry.days[day] = addCounts(entry.days[day] ?? zeroCounts(), counts);
    entry.months[month] = addCounts(entry.months[month] ?? zeroCounts(), counts);
  }
  return prune({ version: 1, entries }, nowMs);
}

export function prune(ledger: Ledger, nowMs: number): Ledger {
  const oldestDayMonth = utcMonthBefore(nowMs, 1);
  const oldestMonth = utcMonthBefore(nowMs, 11);
  const keep = <T>(record: Record<string, T>, oldest: string) =>
    Object.fromEntries(Object.entries(record).filter(([period]) => period.slice(0, 7) >= oldest));
  const entries = ledger.entries
    .map((entry) => ({
      ...entry,
      days: keep(entry.days, oldestDayMonth),
      months: keep(entry.months, oldestMonth),
    }))
    .filter((entry) => Object.keys(entry.months).length > 0);
  return { version: 1, entries };
}
