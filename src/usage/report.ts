// What `leadctl usage --json` prints and the MCP `usage` tool returns: the ledger's counts for one
// profile and base URL (plus what the running command has sent), beside the plan's limits.
import type { PlanName } from '../config/keys.js';
import type { LedgerKey } from './ledger-math.js';
import type { Counts } from './ledger-schema.js';
import { PLAN_LIMITS, type VariantLimits } from './plans.js';
import { type UsageTotals, usageTotals } from './totals.js';

export interface UsageSource {
  file: string;
  key: LedgerKey;
  plan: PlanName | undefined;
  run?: ReadonlyMap<string, Counts>;
}

export function usageReport(
  source: UsageSource,
  nowMs: number,
): { report: UsageReport; totals: UsageTotals } {
  const { file, key, plan } = source;
  const totals = usageTotals(file, key, source.run ?? new Map(), nowMs);
  const report: UsageReport = {
    profile: key.profile,
    baseUrl: key.baseUrl,
    ledger: file,
    thisMachineOnly: true,
    today: { date: totals.day, ...totals.today },
    month: { month: totals.month, ...totals.thisMonth },
    plan: plan ?? null,
    limits: plan ? { a: limitsJson(PLAN_LIMITS[plan].a), b: limitsJson(PLAN_LIMITS[plan].b) } : null,
  };
  return { report, totals };
}

export type UsageReport = {
  profile: string;
  baseUrl: string;
  ledger: string;
  thisMachineOnly: true;
  today: Counts & { date: string };
  month: Counts & { month: string };
  plan: PlanName | null;
  limits: { a: LimitsJson; b: LimitsJson } | null;
};

type LimitsJson = ReturnType<typeof limitsJson>;

function limitsJson(limits: VariantLimits) {
  return {
    apiAccess: limits.apiAccess,
    dailyRequests: limits.dailyRequests ?? null,
    monthlyLiveSearches: limits.monthlyLiveSearches ?? null,
  };
}
