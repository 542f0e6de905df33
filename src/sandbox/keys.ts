// The sandbox's fixed, documented API keys, what each one unlocks under each plan variant, and the
// Bearer check that turns a request's Authorization header into an account.

import { type ApiResponse, errorResponse } from './responses.js';
import type { SandboxState } from './state.js';
import type { SandboxKeys, SandboxPlan, SandboxVariant } from './types.js';

/** Same every run, on purpose: readable in docs and distinct in their last four characters. */
export const SANDBOX_KEYS: Readonly<SandboxKeys> = Object.freeze({
  free: 'sk_sandbox_free_key_1111',
  pro: 'sk_sandbox_pro_key_2222',
  agency: 'sk_sandbox_agency_key_3333',
  deactivated: 'sk_sandbox_deactivated_key_4444',
});

export interface SandboxAccount {
  /** Counters are kept per account. */
  id: string;
  plan: SandboxPlan;
  active: boolean;
}

const ACCOUNTS: ReadonlyMap<string, SandboxAccount> = new Map([
  [SANDBOX_KEYS.free, { id: 'free', plan: 'free', active: true }],
  [SANDBOX_KEYS.pro, { id: 'pro', plan: 'pro', active: true }],
  [SANDBOX_KEYS.agency, { id: 'agency', plan: 'agency', active: true }],
  [SANDBOX_KEYS.deactivated, { id: 'deactivated', plan: 'agency', active: false }],
]);

export interface PlanAllowance {
  apiAccess: boolean;
  dailyRequests: number;
  monthlyLiveSearches: number;
}

const NO_ACCESS: PlanAllowance = { apiAccess: false, dailyRequests: 0, monthlyLiveSearches: 0 };

/** Variant A is the spec's table; variant B's live-search quota is our guess (the spec leaves it open). */
const PLAN_ALLOWANCES: Readonly<Record<SandboxVariant, Record<SandboxPlan, PlanAllowance>>> = {
  a: {
    free: NO_ACCESS,
    pro: NO_ACCESS,
    agency: { apiAccess: true, dailyRequests: 500, monthlyLiveSearches: 300 },
  },
  b: {
    free: { apiAccess: true, dailyRequests: 100, monthlyLiveSearches: 50 },
    pro: { apiAccess: true, dailyRequests: 1_000, monthlyLiveSearches: 1_000 },
    agency: { apiAccess: true, dailyRequests: 10_000, monthlyLiveSearches: 10_000 },
  },
};

export interface AllowanceOverrides {
  dailyLimit?: number | undefined;
  liveSearchLimit?: number | undefined;
}

export function allowanceFor(
  variant: SandboxVariant,
  plan: SandboxPlan,
  overrides: AllowanceOverrides = {},
): PlanAllowance {
  const base = PLAN_ALLOWANCES[variant][plan];
  if (!base.apiAccess) return base;
  return {
    apiAccess: true,
    dailyRequests: overrides.dailyLimit ?? base.dailyRequests,
    monthlyLiveSearches: overrides.liveSearchLimit ?? base.monthlyLiveSearches,
  };
}

// 401 for a missing or unknown key, 403 for a deactivated account or a plan without API access (variant A's
// Free and Pro). The key itself never appears in a message.
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="leadctl-sandbox"' };

const PLAN_NAMES = { free: 'Free', pro: 'Pro', agency: 'Agency' } as const;

export function authenticate(
  state: SandboxState,
  authorization: string | undefined,
): SandboxAccount | ApiResponse {
  if (!authorization) {
    return errorResponse(
      401,
      'missing_api_key',
      'Missing API key: send the header "Authorization: Bearer <API_KEY>".',
      {},
      CHALLENGE,
    );
  }
  const key = BEARER.exec(authorization)?.[1];
  const account = key === undefined ? undefined : ACCOUNTS.get(key);
  if (!account) {
    const message =
      key === undefined
        ? 'Malformed Authorization header: expected "Bearer <API_KEY>".'
        : 'Invalid API key: no account has this key.';
    return errorResponse(401, 'invalid_api_key', message, {}, CHALLENGE);
  }
  if (!account.active) {
    return errorResponse(
      403,
      'account_deactivated',
      'This account is deactivated; its API key no longer works.',
    );
  }
  if (!state.allowanceFor(account.plan).apiAccess) {
    const plan = PLAN_NAMES[account.plan];
    return errorResponse(
      403,
      'plan_without_api_access',
      `The ${plan} plan does not include API access; API access comes with the Agency plan.`,
      { plan: account.plan },
    );
  }
  return account;
}
