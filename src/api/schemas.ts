// The API's resources, envelopes and error bodies as zod schemas: the one list of each resource's
// fields (in the spec's order: the default csv/tsv columns) and, through z.infer, their types.
//
// The spec fixes field names but not nullability or exact types, so the reading is lenient: only the
// list itself is required; an identity (`id`, `place_id`) must be a string or number when present. Values stay as the server sent them
// (numbers with their digits, fields in their order, unknown fields kept), with one deliberate change:
// a known numeric field that holds a numeric string becomes that number, and one that holds anything
// else but a number becomes null.

import * as z from 'zod/mini';
import { ExactNumber, numberFromToken } from './exact-number.js';

/** Any JSON value as the server sent it. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | ExactNumber
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON number as sent: a JS number when that keeps its digits, else the digits (ExactNumber). */
export type JsonNumber = number | ExactNumber;

// ---- how each kind of field is read

/**
 * Ids: a non-empty string, or a JSON number kept as sent (the paging compares them as text). Missing
 * or null is read as sent: only the runs that need ids to be exact (paging, --unique) refuse it.
 */
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

// ---- resources

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

export type Lead = z.infer<typeof LeadSchema>;
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;

// ---- envelopes

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
export type Meta = { [K in keyof z.infer<typeof WireMetaSchema>]-?: number };

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

export type LeadsPage = { leads: Lead[]; meta: Meta };
export type HistoryPage = { history: HistoryEntry[]; meta: Meta };
export type SearchResponse = {
  results: SearchResult[];
  count: number;
  query: string;
  location: string;
  [key: string]: unknown;
};

// ---- error bodies

/** Where a 429 body may say when to retry; the spec names `retryAfter` but not its place. */
const retryAfterFields = { retryAfter: z.optional(z.unknown()), retry_after: z.optional(z.unknown()) };
export const RetryAfterHolderSchema = z.object(retryAfterFields);
export const RateLimitBodySchema = z.object({
  ...retryAfterFields,
  error: z.optional(z.unknown()),
  detail: z.optional(z.unknown()),
});
