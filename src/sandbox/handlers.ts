// The three endpoints, once the caller is authenticated and the request counted.

import { generateLead } from './data.js';
import type { SandboxAccount } from './keys.js';
import { type ApiResponse, errorResponse, ok } from './responses.js';
import { generateSearchResults } from './search-results.js';
import type { SandboxState } from './state.js';
import { isApiResponse, type Paging, parsePaging, parseSearchBody } from './validate.js';

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  bodyText: string;
}

function pageMeta(paging: Paging, total: number) {
  return { page: paging.page, limit: paging.limit, total, totalPages: Math.ceil(total / paging.limit) };
}

/** Pages past the end are an empty list with the true meta, not an error. */
export function listLeads(state: SandboxState, _account: SandboxAccount, request: ApiRequest): ApiResponse {
  const paging = parsePaging(request.query);
  if (isApiResponse(paging)) return paging;
  const { seed, hostileData } = state.settings;
  const refs = state.leads.slice((paging.page - 1) * paging.limit, paging.limit);
  const leads = refs.map((ref) => generateLead(seed, ref.serial, ref.savedAtMs, hostileData));
  return ok({ leads, meta: pageMeta(paging, state.leads.total) });
}

export function listHistory(state: SandboxState, _account: SandboxAccount, request: ApiRequest): ApiResponse {
  const paging = parsePaging(request.query);
  if (isApiResponse(paging)) return paging;
  const history = state.history.slice((paging.page - 1) * paging.limit, paging.limit);
  return ok({ history, meta: pageMeta(paging, state.history.total) });
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

function parseJsonObject(request: ApiRequest): Record<string, unknown> | ApiResponse {
  if (request.contentType !== undefined && !JSON_MEDIA_TYPE.test(request.contentType)) {
    return errorResponse(
      415,
      'unsupported_media_type',
      'Send the search as JSON with "Content-Type: application/json".',
    );
  }
  if (request.bodyText.trim() === '') {
    return errorResponse(
      400,
      'invalid_json',
      'The request body is empty: send a JSON object with query and location.',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(request.bodyText);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return errorResponse(400, 'invalid_json', `The request body is not valid JSON: ${reason}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return errorResponse(
      400,
      'invalid_body',
      'The request body must be a JSON object with query and location.',
    );
  }
  return body as Record<string, unknown>;
}

export function runSearch(state: SandboxState, account: SandboxAccount, request: ApiRequest): ApiResponse {
  const body = parseJsonObject(request);
  if (isApiResponse(body)) return body;
  const criteria = parseSearchBody(body);
  if (isApiResponse(criteria)) return criteria;

  let results = state.cache.get(criteria);
  const cacheStatus = results ? 'hit' : 'miss';
  if (!results) {
    const limit = state.allowanceFor(account.plan).monthlyLiveSearches;
    const spent = state.usage.spendLiveSearch(account.id, limit);
    if (!spent.allowed) {
      const retryAfter = Math.floor(spent.resetAtMs / 1000);
      const resetsAt = new Date(spent.resetAtMs).toISOString();
      return errorResponse(
        429,
        'live_search_quota_exceeded',
        `The monthly allowance of ${limit} live searches is spent; cached searches still work. It resets at ${resetsAt}.`,
        { retryAfter, resetsAt },
        { 'Retry-After': String(Math.max(0, Math.ceil((spent.resetAtMs - state.settings.now()) / 1000))) },
      );
    }
    results = generateSearchResults(state.settings.seed, criteria, state.settings.hostileData);
    state.cache.set(criteria, results);
  }
  state.history.record(criteria.query, criteria.location, results.length, state.settings.now());
  const responseBody = { results, count: results.length, query: criteria.query, location: criteria.location };
  return ok(responseBody, { 'X-Sandbox-Cache': cacheStatus });
}
