// Everything one sandbox server knows: its resolved settings, its saved leads, history, quota
// counters and cache. Built once at start-up; handlers read and update it.

import { allowanceFor } from './keys.js';
import { hashInts, SeededRandom, Stream, toSeed } from './random.js';
import { HistoryStore, LeadStore, SearchCache } from './stores.js';
import type { SandboxOptions, SandboxPlan } from './types.js';

export type SandboxState = ReturnType<typeof createState>;

function count(value: number | undefined, fallback: number): number {
  return value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
}

function rate(value: number | undefined): number {
  return value === undefined || !Number.isFinite(value) ? 0 : Math.min(1, Math.max(0, value));
}

/** The options with their defaults filled in; the plan limits the tests override apart. */
function resolveSettings(options: SandboxOptions) {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    plan: options.plan ?? 'agency',
    variant: options.variant ?? 'b',
    leads: count(options.leads, 300),
    history: count(options.history, 40),
    latencyMs: count(options.latencyMs, 0),
    failRate: rate(options.failRate),
    resetRate: rate(options.resetRate),
    seed: toSeed(options.seed),
    hostileData: options.hostileData ?? false,
    now: options.now ?? Date.now,
    overrides: { dailyLimit: options.dailyLimit, liveSearchLimit: options.liveSearchLimit },
    recordRequests: options.recordRequests ?? true,
  };
}

export function createState(options: SandboxOptions) {
  const settings = resolveSettings(options);
  // Timestamps hang off the start time (to the minute) so "--since 24h" finds recent leads.
  const anchorMs = Math.floor(settings.now() / 60_000) * 60_000;
  const { seed } = settings;
  const jitter = (serial: number) => hashInts(seed, Stream.lead, serial, 0x7157) / 4294967296;
  return {
    settings,
    leads: new LeadStore(settings.leads, anchorMs, jitter),
    history: new HistoryStore(seed, settings.history, anchorMs, settings.hostileData),
    /** Requests per UTC day per account. */
    requests: new PeriodCounter(nextUtcMidnight, settings.now),
    /** Live searches per UTC calendar month per account. */
    liveSearches: new PeriodCounter(firstOfNextUtcMonth, settings.now),
    cache: new SearchCache(settings.now),
    /** Draws for failRate and resetRate: seeded, so a run's chaos repeats. */
    chaos: new SeededRandom(hashInts(seed, Stream.chaos)),
    allowanceFor: (plan: SandboxPlan) => allowanceFor(settings.variant, plan, settings.overrides),
  };
}

const DAY_MS = 86_400_000;

export function nextUtcMidnight(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

export function firstOfNextUtcMonth(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

/** One counter per account for one kind of allowance, started afresh when its period ends. */
export class PeriodCounter {
  readonly #counters = new Map<string, { periodEndMs: number; used: number }>();

  constructor(
    private readonly periodEnd: (nowMs: number) => number,
    private readonly now: () => number,
  ) {}

  /** `remaining` is what is left after this spend; `resetAtMs`, when the counter starts afresh. */
  spend(accountId: string, limit: number) {
    const nowMs = this.now();
    let counter = this.#counters.get(accountId);
    if (!counter || nowMs >= counter.periodEndMs) {
      counter = { periodEndMs: this.periodEnd(nowMs), used: 0 };
      this.#counters.set(accountId, counter);
    }
    if (counter.used >= limit) return { allowed: false, limit, remaining: 0, resetAtMs: counter.periodEndMs };
    counter.used++;
    return { allowed: true, limit, remaining: limit - counter.used, resetAtMs: counter.periodEndMs };
  }
}
