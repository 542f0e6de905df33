// Today's and this month's numbers for one profile and base URL: what the ledger holds plus what the
// running command has sent and not yet written.
import { readLedger } from './ledger-file.js';
import { addCounts, findEntry, type LedgerKey } from './ledger-math.js';
import { type Counts, zeroCounts } from './ledger-schema.js';
import { utcDay, utcMonth } from './periods.js';

export interface UsageTotals {
  /** `2026-11-23`, UTC. */
  day: string;
  /** `2026-11`, UTC. */
  month: string;
  today: Counts;
  thisMonth: Counts;
  /** Why the ledger file was not usable, if it was not (the numbers then count this run only). */
  problem?: string;
}

export function usageTotals(
  file: string,
  key: LedgerKey,
  run: ReadonlyMap<string, Counts>,
  nowMs: number,
): UsageTotals {
  const day = utcDay(nowMs);
  const month = utcMonth(nowMs);
  const { ledger, problem } = readLedger(file);
  const entry = findEntry(ledger, key);
  let today = entry?.days[day] ?? zeroCounts();
  let thisMonth = entry?.months[month] ?? zeroCounts();
  for (const [runDay, counts] of run) {
    if (runDay === day) today = addCounts(today, counts);
    if (runDay.slice(0, 7) === month) thisMonth = addCounts(thisMonth, counts);
  }
  return { day, month, today, thisMonth, ...(problem ? { problem } : {}) };
}
