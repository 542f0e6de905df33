// The API's resources, envelopes and error bodies as zod schemas: the one list of each resource's
// fields (in the spec's order: the default csv/tsv columns), and the types a library user writes against.
// The spec fixes field names but not nullability or exact types, so the reading is lenient: only the
// list itself is required.
import * as z from 'zod/mini';
import { ExactNumber, numberFromToken } from './exact-number.js';

/**
 * Any JSON value, as a library user gets it: numbers are JS numbers, except those a JS number cannot
 * hold (a 64-bit id, digits beyond double precision), which are {@link ExactNumber}s.
 */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | ExactNumber
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON number: a JS number when that holds its value, else an {@link ExactNumber}. */
export type JsonNumber = number | ExactNumber;

/**
 * An item's identity as sent: the spec's string (a UUID), or a JSON number some servers send (an
 * {@link ExactNumber} when a JS number cannot hold it, e.g. a 64-bit id). `String(id)` is its text.
 */
export type Id = string | number | ExactNumber;

// Ids: a non-empty string, or a JSON number kept as sent (the paging compares them as text). Missing or
// null is read as sent: only the runs that need ids to be exact (paging, --unique) refuse it.
const identity = z.nullish(
  z.union([z.string().check(z.minLength(1, { error: 'is empty' })), z.number(), z.instanceof(ExactNumber)], {
    error: 'is neither a string nor a number',
  }),
);

/** Text in the spec, kept as sent whatever its JSON type: leadctl changes only numeric fields. */
const text = z.optional(z.custom<JsonValue>());

/** Numbers in the spec: a numeric string becomes that number, anything else but a number null. */
const numeric = z.optional(z.transform(readNumber));

const NUMERIC_TEXT = /^\s*([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+)?\s*$/;

export function readNumber(value: unknown): JsonNumber | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof ExactNumber) return value;
  if (typeof value !== 'string') return null;
  // " 4.50 " -> 4.50 with its digits kept; "+5", "05", ".5", "5." -> the JSON spelling of that number.
  const match = NUMERIC_TEXT.exec(value);
  if (match === null) return null;
  const [, sign, whole = '', fraction = '', exponent = ''] = match;
  if (whole === '' && fraction === '') return null;
  const digits = whole.replace(/^0+(?=\d)/, '') || '0';
  return numberFromToken(`${sign === '-' ? '-' : ''}${digits}${fraction ? `.${fraction}` : ''}${exponent}`);
}

export const LeadSchema = z.looseObject({
  id: identity,
  name: text,
  address: text,
  phone: text,
  website: text,
  rating: numeric,
  review_count: numeric,
  category: text,
  saved_at: text,
});

export const HistoryEntrySchema = z.looseObject({
  id: identity,
  query: text,
  location: text,
  results_count: numeric,
  created_at: text,
});

export const SearchResultSchema = z.looseObject({
  place_id: identity,
  name: text,
  address: text,
  phone: text,
  website: text,
  rating: numeric,
  review_count: numeric,
  category: text,
  lat: numeric,
  lng: numeric,
});

/**
 * The part of a resource whose reading can change or refuse a value (its identity and numbers): a
 * text field accepts anything as sent, so reading it would only copy it.
 */
export function fieldsThatRead(resource: z.ZodMiniObject): z.ZodMiniObject {
  const reading = Object.entries(resource.shape).filter(([, field]) => field !== text);
  return z.object(Object.fromEntries(reading));
}

/** How the typed reading (parse-response.ts) treats each known field of a resource. */
export type FieldKind = 'id' | 'text' | 'number';

/** Each known field of a resource and its kind, in the spec's order. */
export function fieldKinds(resource: z.ZodMiniObject): ReadonlyMap<string, FieldKind> {
  const kinds = new Map<string, FieldKind>();
  for (const [name, field] of Object.entries(resource.shape)) {
    kinds.set(name, field === text ? 'text' : field === numeric ? 'number' : 'id');
  }
  return kinds;
}

// The types of the typed reading, written out (the lenient schemas above accept anything) so that each
// field has its hover doc; KnownFieldsOf below checks that they name exactly the schema's fields.

/** A saved lead (element of `leads`). Fields the spec does not name are kept as sent (JsonValue). */
export interface Lead {
  /** The lead's identity: a UUID string in the spec; null when the server sent none. */
  id: Id | null;
  /** Business name. */
  name: string | null;
  /** Single-line address. */
  address: string | null;
  /** International format with a leading plus sign. */
  phone: string | null;
  /** URL. */
  website: string | null;
  /** Decimal rating; a numeric string from the server is read as its number. */
  rating: number | null;
  /** Integer; a numeric string from the server is read as its number. */
  review_count: number | null;
  /** Business category. */
  category: string | null;
  /** ISO 8601 UTC timestamp, when the lead was saved. */
  saved_at: string | null;
  /** Fields the spec does not name, as sent. */
  [field: string]: JsonValue;
}

/** A past search (element of `history`). Fields the spec does not name are kept as sent. */
export interface HistoryEntry {
  /** The entry's identity: a UUID string in the spec; null when the server sent none. */
  id: Id | null;
  /** The query text that was searched. */
  query: string | null;
  /** The location that was searched. */
  location: string | null;
  /** How many results that search returned. */
  results_count: number | null;
  /** ISO 8601 UTC timestamp, when the search ran. */
  created_at: string | null;
  /** Fields the spec does not name, as sent. */
  [field: string]: JsonValue;
}

/** A place found by a search (element of `results`). Fields the spec does not name are kept as sent. */
export interface SearchResult {
  /** Opaque identifier of the place; null when the server sent none. */
  place_id: Id | null;
  name: string | null;
  address: string | null;
  phone: string | null;
  /** URL. */
  website: string | null;
  rating: number | null;
  review_count: number | null;
  category: string | null;
  /** Latitude, decimal degrees. */
  lat: number | null;
  /** Longitude, decimal degrees. */
  lng: number | null;
  /** Fields the spec does not name, as sent. */
  [field: string]: JsonValue;
}

/** The named (non-index) keys of a type. */
type KnownFieldsOf<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// A compile error here means a type above and its schema name different fields.
const typesMatchSchemas: [
  SameKeys<KnownFieldsOf<Lead>, keyof typeof LeadSchema.shape>,
  SameKeys<KnownFieldsOf<HistoryEntry>, keyof typeof HistoryEntrySchema.shape>,
  SameKeys<KnownFieldsOf<SearchResult>, keyof typeof SearchResultSchema.shape>,
] = [true, true, true];
void typesMatchSchemas;

/** A count in meta or a search response, as a JS number; one that cannot be read counts as missing. */
const count = z.optional(
  z.transform((value: unknown) => {
    const number = readNumber(value);
    const n = number instanceof ExactNumber ? Number(number.digits) : number;
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
  }),
);

/** meta as it arrives: any part may be missing (parse-response.ts completes it). */
export const WireMetaSchema = z.object({ page: count, limit: count, total: count, totalPages: count });

/** Pagination metadata, completed from the request and the page where the server left parts out. */
export interface Meta {
  /** This page's number, 1-based. */
  page: number;
  /** Items per page. */
  limit: number;
  /** Items in the whole list. */
  total: number;
  /** Pages in the whole list. */
  totalPages: number;
}
const metaMatchesSchema: SameKeys<keyof Meta, keyof z.infer<typeof WireMetaSchema>> = true;
void metaMatchesSchema;

// `null` is how many servers (Go's encoding/json among them) write an empty list. The items are read
// one by one (parse-response.ts) so that a malformed one is named with its index.
const list = z.nullable(z.array(z.unknown()));

export const LeadsEnvelopeSchema = z.looseObject({ leads: list, meta: z.optional(z.unknown()) });
export const HistoryEnvelopeSchema = z.looseObject({ history: list, meta: z.optional(z.unknown()) });
export const SearchEnvelopeSchema = z.looseObject({
  results: list,
  count,
  query: z.optional(z.unknown()),
  location: z.optional(z.unknown()),
});

/** One page of `listLeads()`. */
export type LeadsPage = { leads: Lead[]; meta: Meta };
/** One page of `listHistory()`. */
export type HistoryPage = { history: HistoryEntry[]; meta: Meta };
/** What `search()` gives: the results, and the server's count and echo of the request. */
export type SearchResponse = {
  results: SearchResult[];
  /** The server's count of results, else how many came. */
  count: number;
  /** The query as the server echoed it, else as asked. */
  query: string;
  /** The location as the server echoed it, else as asked. */
  location: string;
  /** Other fields of the response, as sent. */
  [key: string]: unknown;
};

/** Where a 429 body may say when to retry; the spec names `retryAfter` but not its place. */
const retryAfterFields = { retryAfter: z.optional(z.unknown()), retry_after: z.optional(z.unknown()) };
export const RetryAfterHolderSchema = z.object(retryAfterFields);
export const RateLimitBodySchema = z.object({
  ...retryAfterFields,
  error: z.optional(z.unknown()),
  detail: z.optional(z.unknown()),
});
