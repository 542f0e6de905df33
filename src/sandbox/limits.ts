// Quota counters: requests per UTC day per account, live searches per UTC calendar month per account.
// Each counter starts afresh when the clock crosses into a new day or month.

const DAY_MS = 86_400_000;

export function nextUtcMidnight(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

export function firstOfNextUtcMonth(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

export interface AllowanceState {
  allowed: boolean;
  limit: number;
  /** What is left after this spend (0 when refused). */
  remaining: number;
  /** When the counter starts afresh, Unix milliseconds. */
  resetAtMs: number;
}

interface Counter {
  periodEndMs: number;
  used: number;
}

/** One counter per account for one kind of allowance. */
class PeriodCounter {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly periodEnd: (nowMs: number) => number) {}

  private current(accountId: string, nowMs: number): Counter {
    let counter = this.counters.get(accountId);
    if (!counter || nowMs >= counter.periodEndMs) {
      counter = { periodEndMs: this.periodEnd(nowMs), used: 0 };
      this.counters.set(accountId, counter);
    }
    return counter;
  }

  spend(accountId: string, limit: number, nowMs: number): AllowanceState {
    const counter = this.current(accountId, nowMs);
    if (counter.used >= limit) return { allowed: false, limit, remaining: 0, resetAtMs: counter.periodEndMs };
    counter.used++;
    return { allowed: true, limit, remaining: limit - counter.used, resetAtMs: counter.periodEndMs };
  }

  used(accountId: string, nowMs: number): number {
    return this.current(accountId, nowMs).used;
  }
}

export class UsageLedger {
  private readonly daily = new PeriodCounter(nextUtcMidnight);
  private readonly monthly = new PeriodCounter(firstOfNextUtcMonth);

  constructor(private readonly now: () => number) {}

  spendRequest(accountId: string, limit: number): AllowanceState {
    return this.daily.spend(accountId, limit, this.now());
  }

  spendLiveSearch(accountId: string, limit: number): AllowanceState {
    return this.monthly.spend(accountId, limit, this.now());
  }

  liveSearchesUsed(accountId: string): number {
    return this.monthly.used(accountId, this.now());
  }
}
