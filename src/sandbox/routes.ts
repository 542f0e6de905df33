// The request pipeline: route, method, key, daily allowance, then the endpoint. Unknown paths and
// wrong methods are answered before the key is checked; every authenticated request that gets past the
// daily check counts against it, whatever its outcome (422 and 429-for-searches included).

import { authenticate } from './auth.js';
import { type ApiRequest, listHistory, listLeads, runSearch } from './handlers.js';
import type { SandboxAccount } from './keys.js';
import { type ApiResponse, errorResponse } from './responses.js';
import type { SandboxState } from './state.js';

type Handler = (state: SandboxState, account: SandboxAccount, request: ApiRequest) => ApiResponse;

const ROUTES: ReadonlyMap<string, { method: string; handle: Handler }> = new Map([
  ['/api/v1/leads', { method: 'GET', handle: listLeads }],
  ['/api/v1/history', { method: 'GET', handle: listHistory }],
  ['/api/v1/search', { method: 'POST', handle: runSearch }],
]);

const KNOWN_ROUTES = [...ROUTES].map(([path, route]) => `${route.method} ${path}`).join(', ');

export function routeRequest(state: SandboxState, request: ApiRequest): ApiResponse {
  const route = ROUTES.get(request.path);
  if (!route) {
    const shown = request.path.length > 100 ? `${request.path.slice(0, 100)}...` : request.path;
    return errorResponse(404, 'not_found', `No such endpoint: ${shown}. Known endpoints: ${KNOWN_ROUTES}.`);
  }
  if (route.method !== request.method) {
    return errorResponse(
      405,
      'method_not_allowed',
      `${request.path} accepts ${route.method} only, not ${request.method}.`,
      {},
      { Allow: route.method },
    );
  }
  const account = authenticate(state, request.authorization);
  if ('status' in account) return account;

  const limit = state.allowanceFor(account.plan).dailyRequests;
  const spent = state.usage.spendRequest(account.id, limit);
  const resetSeconds = Math.floor(spent.resetAtMs / 1000);
  const rateHeaders = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(spent.remaining),
    'X-RateLimit-Reset': String(resetSeconds),
  };
  if (!spent.allowed) {
    const resetsAt = new Date(spent.resetAtMs).toISOString();
    const waitSeconds = Math.max(0, Math.ceil((spent.resetAtMs - state.settings.now()) / 1000));
    return errorResponse(
      429,
      'rate_limited',
      `Daily limit of ${limit} requests reached; it resets at ${resetsAt} (UTC midnight).`,
      { retryAfter: resetSeconds, resetsAt },
      { ...rateHeaders, 'Retry-After': String(waitSeconds) },
    );
  }
  const response = route.handle(state, account, request);
  return { ...response, headers: { ...rateHeaders, ...response.headers } };
}
