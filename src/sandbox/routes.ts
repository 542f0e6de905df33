// The request pipeline: route, method, key, daily allowance, then the endpoint. Unknown paths and methods are
// answered before the key is checked; every request past the daily check counts, even a 422 or a 429.

import { generateLead, generateSearchResults, type SearchCriteria } from './data.js';
import { authenticate, type SandboxAccount } from './keys.js';
import {
  type ApiResponse,
  describeValue,
  errorResponse,
  type FieldProblem,
  ok,
  validationError,
} from './responses.js';
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
  const spent = state.requests.spend(account.id, limit);
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

interface ApiRequest {
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
function listLeads(state: SandboxState, _account: SandboxAccount, request: ApiRequest): ApiResponse {
  const paging = parsePaging(request.query);
  if (isApiResponse(paging)) return paging;
  const { seed, hostileData } = state.settings;
  const refs = state.leads.slice((paging.page - 1) * paging.limit, paging.limit);
  const leads = refs.map((ref) => ({
    ...generateLead(seed, ref.serial, ref.savedAtMs, hostileData, ref.rank),
    ...state.leads.changes.get(ref.serial),
  }));
  return ok({ leads, meta: pageMeta(paging, state.leads.total) });
}

function listHistory(state: SandboxState, _account: SandboxAccount, request: ApiRequest): ApiResponse {
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

function runSearch(state: SandboxState, account: SandboxAccount, request: ApiRequest): ApiResponse {
  const body = parseJsonObject(request);
  if (isApiResponse(body)) return body;
  const criteria = parseSearchBody(body);
  if (isApiResponse(criteria)) return criteria;

  let results = state.cache.get(criteria);
  const cacheStatus = results ? 'hit' : 'miss';
  if (!results) {
    const limit = state.allowanceFor(account.plan).monthlyLiveSearches;
    const spent = state.liveSearches.spend(account.id, limit);
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

// Out-of-range values are refused with 422 naming the parameter and the reason, never silently clamped.
const DEFAULT_PAGE = 1;
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const DEFAULT_RADIUS = 10;
const MAX_RADIUS = 50;
const MAX_TEXT_LENGTH = 200;

interface Paging {
  page: number;
  limit: number;
}

function wholeNumber(
  name: string,
  raw: string | null,
  fallback: number,
  max: number,
  problems: FieldProblem[],
): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) {
    problems.push({ field: name, reason: `must be a whole number (got ${describeValue(raw)})` });
    return fallback;
  }
  const value = Number(raw);
  if (value < 1) problems.push({ field: name, reason: `must be at least 1 (got ${value})` });
  else if (value > max)
    problems.push({ field: name, reason: `must be at most ${max} (got ${describeValue(raw)})` });
  return value;
}

function parsePaging(query: URLSearchParams): Paging | ApiResponse {
  const problems: FieldProblem[] = [];
  const page = wholeNumber('page', query.get('page'), DEFAULT_PAGE, Number.MAX_SAFE_INTEGER, problems);
  const limit = wholeNumber('limit', query.get('limit'), DEFAULT_LIMIT, MAX_LIMIT, problems);
  return problems.length > 0 ? validationError(problems) : { page, limit };
}

function requiredText(body: Record<string, unknown>, name: string, problems: FieldProblem[]): string {
  const value = body[name];
  if (value === undefined || value === null) problems.push({ field: name, reason: 'is required' });
  else if (typeof value !== 'string')
    problems.push({ field: name, reason: `must be a string (got ${describeValue(value)})` });
  else if (value.trim() === '') problems.push({ field: name, reason: 'must not be empty' });
  else if (value.length > MAX_TEXT_LENGTH)
    problems.push({ field: name, reason: `must be at most ${MAX_TEXT_LENGTH} characters` });
  else return value.trim();
  return '';
}

function radiusOf(value: unknown, problems: FieldProblem[]): number {
  if (value === undefined || value === null) return DEFAULT_RADIUS;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    problems.push({
      field: 'radius',
      reason: `must be a whole number of miles (got ${describeValue(value)})`,
    });
  } else if (value < 1) {
    problems.push({ field: 'radius', reason: `must be at least 1 (got ${value})` });
  } else if (value > MAX_RADIUS) {
    problems.push({ field: 'radius', reason: `must be at most ${MAX_RADIUS} (got ${value})` });
  } else {
    return value;
  }
  return DEFAULT_RADIUS;
}

/** `body` is already parsed JSON and known to be an object. */
function parseSearchBody(body: Record<string, unknown>): SearchCriteria | ApiResponse {
  const problems: FieldProblem[] = [];
  const query = requiredText(body, 'query', problems);
  const location = requiredText(body, 'location', problems);
  const radius = radiusOf(body.radius, problems);
  return problems.length > 0 ? validationError(problems) : { query, location, radius };
}

function isApiResponse(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}
