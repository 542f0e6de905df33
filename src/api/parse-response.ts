// From a 2xx body to the client's results, through the schemas of schemas.ts. The as-sent items keep
// what the server sent (key order, unknown and odd keys, number digits): a schema's reading of the known
// fields is written back into the item the body gave, rather than the item replaced by the schema's
// copy. The client hands out their typed reading (typed-items.ts), which keeps them for the CLI.

import type * as z from 'zod/mini';
import { ProtocolError } from './errors.js';
import { JsonTooDeepError, parseJsonLossless } from './lossless-json.js';
import {
  fieldKinds,
  fieldsThatRead,
  type HistoryEntry,
  HistoryEntrySchema,
  HistoryEnvelopeSchema,
  type HistoryPage,
  type Lead,
  LeadSchema,
  LeadsEnvelopeSchema,
  type LeadsPage,
  type Meta,
  SearchEnvelopeSchema,
  type SearchResponse,
  type SearchResult,
  SearchResultSchema,
  WireMetaSchema,
} from './schemas.js';
import { oneLine } from './server-message.js';
import { type TypedFields, typedFields, typedItem } from './typed-items.js';

/** What the client asked for: fills meta.page/limit when the server leaves them out. */
export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** A 2xx answer as read off the wire (what `LeadClient.request()` gives). */
export interface RawResponse {
  /** The HTTP status, 200-299. */
  status: number;
  /** The whole body as text, undecoded. */
  body: string;
  /** The Content-Type header, when the server sent one. */
  contentType?: string | undefined;
}

// The spec's defaults, used when neither the server nor the request says.
const DEFAULT_PAGE = 1;
const DEFAULT_LIMIT = 25;

export function parseLeadsPage(response: RawResponse, request: PageRequest): LeadsPage {
  const envelope = readEnvelope(response, LeadsEnvelopeSchema, 'leads');
  const leads = readItems(envelope.leads, LEAD_READER, 'leads', response) as Lead[];
  return { leads, meta: completeMeta(envelope.meta, request, leads.length, response) };
}

export function parseHistoryPage(response: RawResponse, request: PageRequest): HistoryPage {
  const envelope = readEnvelope(response, HistoryEnvelopeSchema, 'history');
  const history = readItems(envelope.history, HISTORY_READER, 'history', response) as HistoryEntry[];
  return { history, meta: completeMeta(envelope.meta, request, history.length, response) };
}

/** count, query and location are completed from the results and the request when missing. */
export function parseSearchResponse(
  response: RawResponse,
  request: { query: string; location: string },
): SearchResponse {
  const envelope = readEnvelope(response, SearchEnvelopeSchema, 'results');
  const results = readItems(envelope.results, SEARCH_RESULT_READER, 'results', response) as SearchResult[];
  const echo = (value: unknown, asked: string) => (typeof value === 'string' ? value : asked);
  return {
    ...envelope,
    results,
    count: envelope.count ?? results.length,
    query: echo(envelope.query, request.query),
    location: echo(envelope.location, request.location),
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
  // A meta that cannot be read at all counts as missing.
  const meta = WireMetaSchema.safeParse(raw).data ?? {};
  const page = meta.page ?? request.page ?? DEFAULT_PAGE;
  const limit = meta.limit ?? request.limit ?? DEFAULT_LIMIT;
  let total = meta.total;
  if (total === undefined) {
    const lastPage = itemCount < limit || (meta.totalPages !== undefined && page >= meta.totalPages);
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

/** The body as a JSON object (lossless), or a ProtocolError quoting the status and the start of the body. */
export function decodeJsonObject(response: RawResponse): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonLossless(response.body);
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new ProtocolError(`server answered ${response.status} with ${error.message}`);
    }
    const looksLikeHtml = /html/i.test(response.contentType ?? '') || /^\s*</.test(response.body);
    throw new ProtocolError(
      `server answered ${response.status} with something that is not JSON: ${quoteBody(response.body)}`,
      looksLikeHtml ? 'that looks like a web page: check that `baseUrl` points at the API' : undefined,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolError(
      `server answered ${response.status} with JSON that is not an object: ${quoteBody(response.body)}`,
    );
  }
  return value as Record<string, unknown>;
}

function readEnvelope<S extends z.ZodMiniType>(
  response: RawResponse,
  schema: S,
  listKey: string,
): z.infer<S> {
  const parsed = schema.safeParse(decodeJsonObject(response));
  if (!parsed.success) {
    throw new ProtocolError(
      `server answered ${response.status} without a "${listKey}" list: ${quoteBody(response.body)}`,
    );
  }
  return parsed.data;
}

/** A schema for the fields of an item that need reading, and their names. */
interface ItemReader {
  schema: z.ZodMiniObject;
  fields: string[];
  typed: TypedFields;
}

const readerOf = (resource: z.ZodMiniObject): ItemReader => {
  const schema = fieldsThatRead(resource);
  return { schema, fields: Object.keys(schema.shape), typed: typedFields(fieldKinds(resource)) };
};
const LEAD_READER = readerOf(LeadSchema);
const HISTORY_READER = readerOf(HistoryEntrySchema);
const SEARCH_RESULT_READER = readerOf(SearchResultSchema);

function readItems(
  list: unknown[] | null,
  reader: ItemReader,
  key: string,
  response: RawResponse,
): Record<string, unknown>[] {
  if (list === null) return [];
  const { schema, fields: known } = reader;
  const typed: Record<string, unknown>[] = new Array(list.length);
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw malformedItem(response, `${key}[${index}] is not an object`);
    }
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path ?? []).map((part) =>
        typeof part === 'number' ? `[${part}]` : `.${String(part)}`,
      );
      throw malformedItem(response, `${key}[${index}]${field.join('')} ${issue?.message ?? 'is invalid'}`);
    }
    // The schema's reading of the known fields, written back into the item as the server ordered it.
    const source = item as Record<string, unknown>;
    const read = parsed.data as Record<string, unknown>;
    for (const field of known) {
      if (Object.hasOwn(read, field) && read[field] !== source[field]) source[field] = read[field];
    }
    typed[index] = typedItem(source, reader.typed);
  }
  return typed;
}

function malformedItem(response: RawResponse, what: string): ProtocolError {
  return new ProtocolError(`server answered ${response.status} with a malformed item: ${what}`);
}

/** The first 200 characters of a body, on one line, control characters made visible. */
export function quoteBody(body: string): string {
  return body.trim() === '' ? '(an empty body)' : `"${oneLine(body, 200)}"`;
}
