// What each plan allows under the spec's two published plan tables (lead-api-v1.md, "Limits"). The
// spec does not say which table applies, so both are kept and shown; warnings use the stricter one.
import type { PlanName } from '../config/keys.js';

export type Variant = 'a' | 'b';

export interface VariantLimits {
  apiAccess: boolean;
  /** Requests per UTC day; undefined without API access. */
  dailyRequests?: number;
  /** Live searches (cache misses) per month; undefined where the spec does not publish one. */
  monthlyLiveSearches?: number;
}

export const PLAN_LIMITS: Readonly<Record<PlanName, Record<Variant, VariantLimits>>> = {
  // Variant A: API access for Agency only, 500 requests a day and 300 live searches a month.
  // Variant B: every plan, 100 / 1,000 / 10,000 requests a day; its search quota is not published.
  free: { a: { apiAccess: false }, b: { apiAccess: true, dailyRequests: 100 } },
  pro: { a: { apiAccess: false }, b: { apiAccess: true, dailyRequests: 1_000 } },
  agency: {
    a: { apiAccess: true, dailyRequests: 500, monthlyLiveSearches: 300 },
    b: { apiAccess: true, dailyRequests: 10_000 },
  },
};

export interface StrictestLimit {
  limit: number;
  variant: Variant;
}

/** The smallest daily request limit among the variants that give this plan API access. */
export function strictestDailyLimit(plan: PlanName): StrictestLimit {
  return strictest(plan, (limits) => limits.dailyRequests) as StrictestLimit;
}

/** The smallest published monthly live-search allowance, if any variant publishes one. */
export function strictestMonthlySearches(plan: PlanName): StrictestLimit | undefined {
  return strictest(plan, (limits) => limits.monthlyLiveSearches);
}

function strictest(
  plan: PlanName,
  pick: (limits: VariantLimits) => number | undefined,
): StrictestLimit | undefined {
  let best: StrictestLimit | undefined;
  for (const variant of ['a', 'b'] as const) {
    const limits = PLAN_LIMITS[plan][variant];
    const limit = limits.apiAccess ? pick(limits) : undefined;
    if (limit !== undefined && (best === undefined || limit < best.limit)) best = { limit, variant };
  }
  return best;
}

export function planLabel(plan: PlanName): string {
  return plan === 'free' ? 'Free' : plan === 'pro' ? 'Pro' : 'Agency';
}
