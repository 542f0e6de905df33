// Checks of what a client sends: paging parameters and the search body. Out-of-range values are
// refused with 422 naming the parameter and the reason, never silently clamped.

import type { SearchCriteria } from './data.js';
import { type ApiResponse, describeValue, type FieldProblem, validationError } from './responses.js';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const DEFAULT_RADIUS = 10;
export const MAX_RADIUS = 50;
export const MAX_TEXT_LENGTH = 200;

export interface Paging {
  page: number;
  limit: number;
}

function wholeNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
  problems: FieldProblem[],
): number {
  if (raw === undefined) return fallback;
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

export function parsePaging(query: URLSearchParams): Paging | ApiResponse {
  const problems: FieldProblem[] = [];
  const page = wholeNumber(
    'page',
    query.get('page') ?? undefined,
    DEFAULT_PAGE,
    Number.MAX_SAFE_INTEGER,
    problems,
  );
  const limit = wholeNumber('limit', query.get('limit') ?? undefined, DEFAULT_LIMIT, MAX_LIMIT, problems);
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
export function parseSearchBody(body: Record<string, unknown>): SearchCriteria | ApiResponse {
  const problems: FieldProblem[] = [];
  const query = requiredText(body, 'query', problems);
  const location = requiredText(body, 'location', problems);
  const radius = radiusOf(body.radius, problems);
  return problems.length > 0 ? validationError(problems) : { query, location, radius };
}

export function isApiResponse(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}
