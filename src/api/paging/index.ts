// Paging: the one entry point. Every item of a newest-first list, in server order, each once, even
// while the list changes (README.md beside this file says how and why). The one-page path of the CLI
// and the --all path both fetch a page through fetchListPage().
import { abortErrorFor, UsageError } from '../errors.js';
import type { HistoryEntry, HistoryPage, Lead, LeadsPage, Meta } from '../schemas.js';
import { parseSince } from '../timestamp.js';
import { walkPages } from './walk.js';

export interface PageResult<T> {
  items: T[];
  meta: Meta;
}
export type FetchPage<T> = (page: number, limit: number, signal: AbortSignal) => Promise<PageResult<T>>;

export interface PageProgress {
  pagesFetched: number;
  totalPages: number;
  itemsYielded: number;
  total: number;
}

export interface PaginateOptions {
  /** Page size, 1..100. */
  limit: number;
  /** Default 1. */
  startPage?: number;
  /** Pages in flight, default 4, 1..16. */
  concurrency?: number;
  /** Stop after n items yielded. */
  maxItems?: number;
  /** Only items whose timeField is newer than this; stop at the first that is not. */
  since?: Date;
  /** Default 'id'. */
  idField?: string;
  /** e.g. 'saved_at'; required when since is set, read for nothing else. */
  timeField?: string;
  /** Abort: stop fetching, reject with the signal's reason. */
  signal?: AbortSignal;
  onProgress?(p: PageProgress): void;
  /** What the run has to say once it ends: repeated ids dropped, the list changing meanwhile. */
  onNotice?(message: string): void;
}

export type ListResource = 'leads' | 'history';
/** The two list calls of LeadClient the pager needs (named here, so that paging imports no client). */
interface ListClient {
  listLeads(params: { page: number; limit: number }, options: { signal?: AbortSignal }): Promise<LeadsPage>;
  listHistory(
    params: { page: number; limit: number },
    options: { signal?: AbortSignal },
  ): Promise<HistoryPage>;
}

/** One page of a list, as paging and the single-page commands both read it. */
export async function fetchListPage(
  client: ListClient,
  resource: ListResource,
  page: number,
  limit: number,
  signal?: AbortSignal,
): Promise<PageResult<Lead | HistoryEntry>> {
  const options = signal ? { signal } : {};
  if (resource === 'leads') {
    const { leads, meta } = await client.listLeads({ page, limit }, options);
    return { items: leads, meta };
  }
  const { history, meta } = await client.listHistory({ page, limit }, options);
  return { items: history, meta };
}

/** What `LeadClient.paginate()` takes: paging options without the parts that follow from the resource. */
export interface ListAllOptions extends Omit<PaginateOptions, 'limit' | 'since' | 'idField' | 'timeField'> {
  /** Page size, 1..100; default 100, the fewest requests. */
  limit?: number;
  since?: Date | string;
}

/** Every item of a list in batches (see paginatePages). */
export function listAllPages(
  client: ListClient,
  resource: ListResource,
  options: ListAllOptions,
  nowMs: number,
): AsyncIterable<(Lead | HistoryEntry)[]> {
  // Bad options reject on the first next(), where a for-await's catch sees them: never a synchronous throw.
  let sinceDate: Date | undefined;
  try {
    if (typeof options !== 'object' || options === null)
      throw new UsageError('paginate options must be an object');
    sinceDate = readSince(options.since, nowMs);
  } catch (error) {
    return failing(error);
  }
  const { since: _since, limit = 100, ...rest } = options;
  const fetchPage: FetchPage<Lead | HistoryEntry> = (page, size, signal) =>
    fetchListPage(client, resource, page, size, signal);
  return paginatePages(fetchPage, {
    ...rest,
    limit,
    idField: 'id',
    timeField: resource === 'leads' ? 'saved_at' : 'created_at',
    ...(sinceDate === undefined ? {} : { since: sinceDate }),
  });
}

function readSince(since: unknown, nowMs: number): Date | undefined {
  if (since === undefined) return undefined;
  if (typeof since === 'string') return parseSince(since, nowMs);
  if (since instanceof Date && !Number.isNaN(since.getTime())) return since;
  throw new UsageError('since must be a Date, an ISO date or time, or a span such as 7d');
}

/** An iterable whose first next() rejects with `error`. */
export function failing<T>(error: unknown): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}

export function paginate<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncIterable<T> {
  return flattenPages(paginatePages(fetchPage, options), options?.signal);
}

/**
 * The same items as paginate(), in the same order, handed out in batches (a page's worth, never empty):
 * for consumers that write many items at once, an await per page instead of per item.
 */
export function paginatePages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncIterable<T[]> {
  try {
    validateOptions(options);
  } catch (error) {
    return failing(error);
  }
  return walkPages(fetchPage, options);
}

/** Batches back to single items; an abort stops it at the next item, not at the end of the page. */
export async function* flattenPages<T>(batches: AsyncIterable<T[]>, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const batch of batches) {
    for (const item of batch) {
      if (signal?.aborted) throw abortErrorFor(signal.reason);
      yield item;
    }
  }
}

function validateOptions(options: PaginateOptions): void {
  const integerIn = (value: number | undefined, min: number, max: number) =>
    value === undefined || (Number.isInteger(value) && value >= min && value <= max);
  if (options.limit === undefined || !integerIn(options.limit, 1, 100))
    throw new UsageError(`limit must be 1..100, got ${options.limit}`);
  if (!integerIn(options.startPage, 1, Number.MAX_SAFE_INTEGER)) {
    throw new UsageError(`page must be an integer >= 1, got ${options.startPage}`);
  }
  if (!integerIn(options.concurrency, 1, 16)) {
    throw new UsageError(`concurrency must be 1..16, got ${options.concurrency}`);
  }
  if (!integerIn(options.maxItems, 0, Number.MAX_SAFE_INTEGER)) {
    throw new UsageError(`max-items must be an integer >= 0, got ${options.maxItems}`);
  }
  if (options.since && (!options.timeField || Number.isNaN(options.since.getTime()))) {
    throw new UsageError('since needs a valid date and a timeField to compare it with');
  }
}
