// What the ledger says against the plan: each plan's limits under the spec's two tables, today's and
// this month's totals, and the report `leadctl usage --json` prints and the MCP `usage` tool returns.
import type { PlanName } from '../config/keys.js';
import {
  addCounts,
  type Counts,
  findEntry,
  type LedgerKey,
  readLedger,
  utcDay,
  utcMonth,
  zeroCounts,
} from './ledger.js';

// The spec publishes two plan tables (lead-api-v1.md, "Limits") without saying which applies: both are shown.
export type Variant = 'a' | 'b';

export interface VariantLimits {
  apiAccess: boolean;
  /** Requests per UTC day; undefined without API access. */
  dailyRequests?: number;
  /** Live searches (cache misses) per month; undefined where the spec does not publish one. */
  monthlyLiveSearches?: number;
}

export const PLAN_LIMITS: Readonly<Record<PlanName, Record<Variant, VariantLimits>>> = {
  free: { a: { apiAccess: false }, b: { apiAccess: true, dailyRequests: 100 } },
  pro: { a: { apiAccess: false }, b: { apiAccess: true, dailyRequests: 1_000 } },
  agency: {
    a: { apiAccess: true, dailyRequests: 500, monthlyLiveSearches: 300 },
    b: { apiAccess: true, dailyRequests: 10_000 },
  },
};

export function planLabel(plan: PlanName): string {
  return plan === 'free' ? 'Free' : plan === 'pro' ? 'Pro' : 'Agency';
}

// What the ledger holds plus what the running command has sent and not yet written.
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

interface UsageSource {
  file: string;
  key: LedgerKey;
  plan: PlanName | undefined;
  run?: ReadonlyMap<string, Counts>;
}

export function usageReport(source: UsageSource, nowMs: number) {
  const { file, key, plan } = source;
  const totals = usageTotals(file, key, source.run ?? new Map(), nowMs);
  const report = {
    profile: key.profile,
    baseUrl: key.baseUrl,
    ledger: file,
    thisMachineOnly: true as const,
    today: { date: totals.day, ...totals.today },
    month: { month: totals.month, ...totals.thisMonth },
    plan: plan ?? null,
    limits: plan ? { a: limitsJson(PLAN_LIMITS[plan].a), b: limitsJson(PLAN_LIMITS[plan].b) } : null,
  };
  return { report, totals };
}

export type UsageReport = ReturnType<typeof usageReport>['report'];

function limitsJson(limits: VariantLimits) {
  return {
    apiAccess: limits.apiAccess,
    dailyRequests: limits.dailyRequests ?? null,
    monthlyLiveSearches: limits.monthlyLiveSearches ?? null,
  };
}
