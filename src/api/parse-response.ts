// From a 2xx body to the client's results, through the schemas of schemas.ts. A schema's reading of the
// known fields is written back into the item the body gave (key order, unknown keys and digits kept); the
// client hands out typedItem's reading, the as-sent item reachable through asSent() (exact-number.ts).
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { oneLine } from '../text/terminal-text.js';
import { hints, ProtocolError, UsageError } from './errors.js';
import { JsonTooDeepError, parseJsonLossless } from './exact-json-parser.js';
import { AS_SENT, ExactNumber, KEY_ORDER, numberHoldsToken } from './exact-number.js';
import {
  type FieldKind,
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

/** What the client asked for: fills meta.page/limit when the server leaves them out. */
export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** An answer as read off the wire: what `LeadClient.request()` gives for a 2xx. */
export interface RawResponse {
  /** The HTTP status (200-299 from `request()`). */
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
 * Fills what the server left out. totalPages comes from total and limit; a missing total is derived only
 * when this page is visibly the last one, since guessing it would make paging stop early or run forever.
 */
export function completeMeta(
  raw: unknown,
  request: PageRequest,
  itemCount: number,
  response?: RawResponse,
): Meta {
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
      looksLikeHtml
        ? hints((o) => `that looks like a web page: check that ${o.baseUrl} points at the API`)
        : undefined,
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
  const kinds = fieldKinds(resource);
  const typed = { names: [...kinds.keys()], kinds: [...kinds.values()], known: new Set(kinds.keys()) };
  return { schema, fields: Object.keys(schema.shape), typed };
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
    const source = item as Record<string, unknown>;
    // Most items hold ids and numbers the schema would read as they are: nothing to read then.
    if (!readsAsIs(source, reader.typed)) {
      const parsed = schema.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = (issue?.path ?? []).map((part) =>
          typeof part === 'number' ? `[${part}]` : `.${String(part)}`,
        );
        throw malformedItem(response, `${key}[${index}]${field.join('')} ${issue?.message ?? 'is invalid'}`);
      }
      // The schema's reading of the known fields, written back into the item as the server ordered it.
      const read = parsed.data as Record<string, unknown>;
      for (const field of known) {
        if (Object.hasOwn(read, field) && read[field] !== source[field]) source[field] = read[field];
      }
    }
    typed[index] = typedItem(source, reader.typed);
  }
  return typed;
}

/** Whether every id and number of `item` is one the schema would pass unchanged. */
function readsAsIs(item: Record<string, unknown>, { names, kinds }: TypedFields): boolean {
  for (let index = 0; index < names.length; index++) {
    const kind = kinds[index] as FieldKind;
    const value = item[names[index] as string];
    if (kind === 'text' || value === null || value === undefined || value instanceof ExactNumber) continue;
    if (typeof value === 'number' && Number.isFinite(value)) continue;
    if (kind !== 'id' || typeof value !== 'string' || value === '') return false;
  }
  return true;
}

function malformedItem(response: RawResponse, what: string): ProtocolError {
  return new ProtocolError(`server answered ${response.status} with a malformed item: ${what}`);
}

/** The first 200 characters of a body, on one line, control characters made visible. */
function quoteBody(body: string): string {
  return body.trim() === '' ? '(an empty body)' : `"${oneLine(body, 200)}"`;
}

// The typed reading of an item: what a library user gets (schemas.ts has its types).
/** A resource's known fields and their kinds, laid out for typedItem's loop. */
interface TypedFields {
  names: string[];
  kinds: FieldKind[];
  known: ReadonlySet<string>;
}

/** `sent` read as its typed resource: known fields per their kind, every other value made plain. */
function typedItem(sent: Record<string, unknown>, fields: TypedFields): Record<string, unknown> {
  // Runs for every item a list hands out: plain loops, no copies unless something differs.
  let typed: Record<string, unknown> | undefined = KEY_ORDER in sent ? copyOf(sent) : undefined;
  const { names, kinds, known } = fields;
  for (let index = 0; index < names.length; index++) {
    const field = names[index] as string;
    const kind = kinds[index] as FieldKind;
    const value = sent[field];
    if (kind === 'text' && typeof value === 'string') continue;
    const present = value !== undefined || Object.hasOwn(sent, field);
    const read = readField(kind, value);
    if (!present || read !== value) {
      typed ??= copyOf(sent);
      setOwn(typed, field, read);
    }
  }
  const keys = Object.keys(sent);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const value = sent[key];
    if (typeof value !== 'object' || value === null || known.has(key)) continue;
    const plain = plainValue(value);
    if (plain !== value) {
      typed ??= copyOf(sent);
      setOwn(typed, key, plain);
    }
  }
  if (typed === undefined) return sent;
  Object.defineProperty(typed, AS_SENT, { value: sent, enumerable: false });
  return typed;
}

function readField(kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'id':
      // Missing reads as null, as every known field does (only paging refuses an item without one).
      return value === undefined ? null : plainValue(value);
    case 'number': {
      // Already read by the schema: a JS number, an ExactNumber or null.
      const number = value instanceof ExactNumber ? value.toNumber() : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : null;
    }
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (value instanceof ExactNumber) return value.digits;
      return null;
  }
}

// A JSON value with every number a JS number holds as that number (ExactNumber kept only for what it
// cannot hold) and recorded key orders dropped; the value itself when nothing changes.
function plainValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof ExactNumber) return numberHoldsToken(value.digits) ? value.toNumber() : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const element = value[index];
      const plain = plainValue(element);
      if (plain !== element) {
        copy ??= value.slice();
        copy[index] = plain;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined = KEY_ORDER in record ? copyOf(record) : undefined;
  for (const key of Object.keys(record)) {
    const field = record[key];
    const plain = plainValue(field);
    if (plain !== field) {
      copy ??= copyOf(record);
      setOwn(copy, key, plain);
    }
  }
  return copy ?? value;
}

/** The object's own string keys and values (no symbols, so no recorded key order). */
function copyOf(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setOwn(copy, key, record[key]);
  return copy;
}

/** Assignment, except that "__proto__" becomes an own key as in JSON.parse, not the prototype. */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}

/** A page of 100 leads is about 30 KB: this leaves room for any real page and stops a runaway body. */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What the client asks for; both are in every Node this runs on. */
export const ACCEPT_ENCODING = 'gzip, br';

/** The cap from the client option (checked), else the default. The CLI reads its variable itself. */
export function maxBodyBytesFrom(option: number | undefined): number {
  if (option === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (Number.isSafeInteger(option) && option >= 1) return option;
  throw new UsageError(`maxBodyBytes must be a whole number of bytes, 1 or more (got ${String(option)})`);
}

/** LEADCTL_MAX_BODY_BYTES for the CLI: undefined when unset (the library default applies). */
export function maxBodyBytesFromEnv(env: string | undefined): number | undefined {
  if (env === undefined || env.trim() === '') return undefined;
  const bytes = /^\s*\d+\s*$/.test(env) ? Number(env) : Number.NaN;
  if (Number.isSafeInteger(bytes) && bytes >= 1) return bytes;
  throw new UsageError(
    `LEADCTL_MAX_BODY_BYTES must be a whole number of bytes, 1 or more: "${env.slice(0, 40)}"`,
    `unset it for the default of ${DEFAULT_MAX_BODY_BYTES} bytes (16 MiB)`,
  );
}

const noop = () => {};

/** The whole body as text (UTF-8, a leading byte-order mark dropped, as undici's text() does). */
export async function readBodyCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  // A body destroyed before its end emits 'error' (RequestAbortedError); with no listener that would
  // be an unhandled 'error' event and end the host process. Our own failure is what the caller sees.
  response.body.on('error', noop);
  const encoding = contentEncoding(response.headers['content-encoding']);
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    response.body.destroy();
    throw tooLarge(response.statusCode, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      // Stop reading: the connection is closed rather than drained.
      response.body.destroy();
      throw tooLarge(response.statusCode, maxBytes);
    }
    chunks.push(chunk);
  }
  const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  const body = encoding === 'identity' ? raw : await decompress(raw, encoding, response.statusCode, maxBytes);
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}

type Encoding = 'identity' | 'gzip' | 'br' | 'deflate';

function contentEncoding(header: string | string[] | undefined): Encoding {
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'br') return 'br';
  if (value === 'deflate') return 'deflate';
  throw new ProtocolError(
    `the server answered with a body encoded as "${value.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}", which leadctl did not ask for (it accepts gzip and br)`,
  );
}

/** zlib is loaded only when a server compresses: a one-page run against one that does not pays nothing. */
async function decompress(
  raw: Buffer,
  encoding: Exclude<Encoding, 'identity'>,
  status: number,
  maxBytes: number,
) {
  const zlib = await import('node:zlib');
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
      // maxOutputLength stops zlib as soon as the output would pass the cap: a bomb never unpacks.
      const options = { maxOutputLength: maxBytes };
      if (encoding === 'gzip') zlib.gunzip(raw, options, done);
      else if (encoding === 'br') zlib.brotliDecompress(raw, options, done);
      else zlib.inflate(raw, options, done);
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw tooLarge(status, maxBytes, ` once decompressed (${encoding})`);
    }
    throw new ProtocolError(
      `server answered ${status} with a ${encoding} body that could not be decompressed (${(error as Error).message})`,
    );
  }
}

function tooLarge(status: number, maxBytes: number, how = ''): ProtocolError {
  return new ProtocolError(
    `server answered ${status} with a body larger than ${describeBytes(maxBytes)}${how}; leadctl stopped reading it`,
    hints((o) => `if such answers are expected, raise the limit: ${o.maxBodyBytes}`),
  );
}

/** 16 MiB, 2.4 MiB, 1000 bytes. */
export function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib < 1) return `${bytes} bytes`;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
