// The API's resources and envelopes. The spec fixes field names but not nullability or exact types,
// so these schemas are lenient: only the identity (`id`, `place_id`) and the list itself are required;
// every other field may be missing or null; numbers may arrive as numeric strings; unknown fields are
// kept untouched so `--format json` passes through everything the server sent.

import { ProtocolError } from './errors.js';
import {
  type FieldKind,
  type ItemNormalizer,
  ItemProblem,
  itemNormalizer,
  toNumberOrNull,
  toTextOrNull,
} from './fast-parse.js';
import { HISTORY_FIELDS, LEAD_FIELDS, SEARCH_RESULT_FIELDS } from './resource-fields.js';
import { oneLine } from './server-message.js';

const META_FIELDS = {
  page: 'number',
  limit: 'number',
  total: 'number',
  totalPages: 'number',
} as const satisfies Record<string, FieldKind>;

const leadParser = itemNormalizer(LEAD_FIELDS);
const historyParser = itemNormalizer(HISTORY_FIELDS);
const searchResultParser = itemNormalizer(SEARCH_RESULT_FIELDS);
const metaParser = itemNormalizer(META_FIELDS);

type RawMeta = { [K in keyof typeof META_FIELDS]?: number | null | undefined };

/** meta as it arrives: any part may be missing, and a meta that cannot be read counts as missing. */
function metaOf(raw: unknown): RawMeta {
  if (raw === undefined || raw === null) return {};
  // A copy: the normalizer coerces in place, and completeMeta's caller still owns `raw`.
  const meta = metaParser(typeof raw === 'object' && !Array.isArray(raw) ? { ...raw } : raw);
  return meta instanceof ItemProblem ? {} : (meta as RawMeta);
}

type Nullable<T> = T | null | undefined;

export type Lead = {
  id: string;
  name?: Nullable<string>;
  address?: Nullable<string>;
  phone?: Nullable<string>;
  website?: Nullable<string>;
  rating?: Nullable<number>;
  review_count?: Nullable<number>;
  category?: Nullable<string>;
  saved_at?: Nullable<string>;
  [k: string]: unknown;
};

export type HistoryEntry = {
  id: string;
  query?: Nullable<string>;
  location?: Nullable<string>;
  results_count?: Nullable<number>;
  created_at?: Nullable<string>;
  [k: string]: unknown;
};

export type SearchResult = {
  place_id: string;
  name?: Nullable<string>;
  address?: Nullable<string>;
  phone?: Nullable<string>;
  website?: Nullable<string>;
  rating?: Nullable<number>;
  review_count?: Nullable<number>;
  category?: Nullable<string>;
  lat?: Nullable<number>;
  lng?: Nullable<number>;
  [k: string]: unknown;
};

export type Meta = { page: number; limit: number; total: number; totalPages: number };
export type LeadsPage = { leads: Lead[]; meta: Meta };
export type HistoryPage = { history: HistoryEntry[]; meta: Meta };
export type SearchResponse = {
  results: SearchResult[];
  count: number;
  query: string;
  location: string;
  [k: string]: unknown;
};

/** What the client asked for: fills meta.page/limit when the server leaves them out. */
export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** A 2xx answer as read off the wire. */
export interface RawResponse {
  status: number;
  body: string;
  contentType?: string | undefined;
}

// The spec's defaults, used when neither the server nor the request says.
const DEFAULT_PAGE = 1;
const DEFAULT_LIMIT = 25;

export function parseLeadsPage(response: RawResponse, request: PageRequest): LeadsPage {
  const json = decodeJsonObject(response);
  const leads = parseList(json, 'leads', leadParser, response) as Lead[];
  return { leads, meta: completeMeta(json.meta, request, leads.length, response) };
}

export function parseHistoryPage(response: RawResponse, request: PageRequest): HistoryPage {
  const json = decodeJsonObject(response);
  const history = parseList(json, 'history', historyParser, response) as HistoryEntry[];
  return { history, meta: completeMeta(json.meta, request, history.length, response) };
}

/** count, query and location are completed from the results and the request when missing. */
export function parseSearchResponse(
  response: RawResponse,
  request: { query: string; location: string },
): SearchResponse {
  const json = decodeJsonObject(response);
  const results = parseList(json, 'results', searchResultParser, response) as SearchResult[];
  // The same coercions as a number and a text field (neither can fail: Infinity becomes null here).
  const count = toNumberOrNull(json.count);
  if (typeof count === 'number' && !Number.isFinite(count)) {
    throw new ProtocolError(`server answered ${response.status} with a count that is not a number: ${count}`);
  }
  const query = toTextOrNull(json.query) as string | null | undefined;
  const location = toTextOrNull(json.location) as string | null | undefined;
  return {
    ...json,
    results,
    count: typeof count === 'number' ? count : results.length,
    query: query ?? request.query,
    location: location ?? request.location,
  };
}

/**
 * Fills what the server left out. totalPages comes from total and limit; a missing total is derived
 * only when this page is visibly the last one, since guessing it would make paging stop early or
 * run forever.
 */
export function completeMeta(
  raw: unknown,
  request: PageRequest,
  itemCount: number,
  response?: RawResponse,
): Meta {
  const meta = metaOf(raw);
  const page = meta.page ?? request.page ?? DEFAULT_PAGE;
  const limit = meta.limit ?? request.limit ?? DEFAULT_LIMIT;
  let total = meta.total;
  if (total === undefined || total === null) {
    const lastPage = itemCount < limit || (typeof meta.totalPages === 'number' && page >= meta.totalPages);
    if (!lastPage || (itemCount === 0 && page > 1)) {
      throw new ProtocolError(
        `server answered ${response?.status ?? 200} without meta.total, so the number of pages is unknown`,
      );
    }
    total = (page - 1) * limit + itemCount;
  }
  const totalPages = meta.totalPages ?? (limit > 0 ? Math.ceil(total / limit) : total > 0 ? 1 : 0);
  return { page, limit, total, totalPages };
}

/** The body as a JSON object, or a ProtocolError quoting the status and the start of the body. */
export function decodeJsonObject(response: RawResponse): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(response.body);
  } catch {
    const looksLikeHtml = /html/i.test(response.contentType ?? '') || /^\s*</.test(response.body);
    throw new ProtocolError(
      `server answered ${response.status} with something that is not JSON: ${quoteBody(response.body)}`,
      looksLikeHtml ? 'that looks like a web page: check that --base-url points at the API' : undefined,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolError(
      `server answered ${response.status} with JSON that is not an object: ${quoteBody(response.body)}`,
    );
  }
  return value as Record<string, unknown>;
}

function parseList(
  json: Record<string, unknown>,
  key: string,
  parse: ItemNormalizer,
  response: RawResponse,
): Record<string, unknown>[] {
  const list = json[key];
  // `null` is how many servers (Go's encoding/json among them) write an empty list.
  if (list === null) return [];
  if (!Array.isArray(list)) {
    throw new ProtocolError(
      `server answered ${response.status} without a "${key}" list: ${quoteBody(response.body)}`,
    );
  }
  const items: Record<string, unknown>[] = new Array(list.length);
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    const parsed = parse(item);
    if (parsed instanceof ItemProblem) {
      const where = `${key}[${index}]${parsed.field ? `.${parsed.field}` : ''}`;
      const what = typeof item !== 'object' || item === null ? 'is not an object' : parsed.message;
      throw new ProtocolError(`server answered ${response.status} with a malformed item: ${where} ${what}`);
    }
    items[index] = parsed;
  }
  return items;
}

/** The first 200 characters of a body, on one line, control characters made visible. */
export function quoteBody(body: string): string {
  return body.trim() === '' ? '(an empty body)' : `"${oneLine(body, 200)}"`;
}
