// Bearer authentication: 401 for a missing or unknown key, 403 for a deactivated account or a plan
// without API access (variant A's Free and Pro). The key itself never appears in a message.

import { accountForKey, type SandboxAccount } from './keys.js';
import { type ApiResponse, errorResponse } from './responses.js';
import type { SandboxState } from './state.js';

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
  const account = key === undefined ? undefined : accountForKey(key);
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
