// Pagination as an async iterator: every page of a newest-first list, in server order, each item once,
// even while someone saves or deletes items during the run.
//
// THE ALGORITHM. Items that existed when the run began ("old" items) are what we owe.
// 1. A cursor (page-cursor.ts) says: in snapshot S, every old item at a position below `covered` has
//    been yielded. Carried to any LATER snapshot it stays true after subtracting how much the total
//    shrank (an old item moves toward the front only by the removals, and the total falls by at least
//    that much minus the inserts). A page is accepted only if it starts at or before the carried
//    `covered`; otherwise we fetch from `covered` again. Inserts push written items onto later pages,
//    where page-yielded.ts recognises them, and the run goes on past the original last page.
// 2. "Later" is tracked with a tick per response: a request sent after a response arrived reads a
//    later snapshot. One page at a time (concurrency 1, or once the list has changed) every page is
//    later than the cursor. The pipeline (page-pipeline.ts) keeps `concurrency` pages in flight, so
//    pages arrive in any order; a page may then be judged in two ways:
//    a. it was sent after the cursor's own response arrived: judged alone, as in (1);
//    b. it is CONFIRMED: the anchor A (page 1, or a probe when starting further in) arrived before the
//       page was sent, a head probe B (page 1, limit 1) sent after the page arrived agrees with A on
//       first id and total, and the page reported that total too. Then the list at the page's snapshot
//       was A's list: a removal is permanent and B's total would be lower unless an insert survived,
//       which would lead B's list; an insert gone again by B but present at the page would have raised
//       the page's total. So the page shows A's list as it also stood at B, later than the cursor if B
//       was also sent after the cursor's response (or the cursor itself was taken on A's list).
//    Of these conditions, "sent after" on both sides is what makes a page safe (each has a staged
//    test in paginate-interleavings.test.ts that fails without it); the page-total check is not
//    needed for correctness, but it makes the pipeline give up sooner on a list that is changing.
//    Probes go one at a time, each compared with A; one goes out every max(16, 2 x concurrency) page
//    requests (about 6% more requests) and once more when the last pages wait for one. A list of one
//    probe interval costs just that final probe. Pages wait, in order, at most one probe interval
//    plus two windows. The window goes out as soon as page 1 is judged (before it is handed out) and
//    each answer refills it at once: when requests are sent never decides what may be handed out,
//    which next() judges with the consumer's cursor. A probe that disagrees, or a page with another total, ends the pipeline: the
//    confirmed pages are kept, the rest dropped, and the run goes on one page at a time.
// 3. Items saved during the run are not owed. With a timeField, anything newer than the first item of
//    the first snapshot is left out, so the export is the list as it was at the start minus deletions,
//    strictly newest first. Without one they may be written, and then possibly out of order.
// 4. Memory: written old items are always a prefix of the list, so with a timeField the record of
//    what was written (page-yielded.ts) keeps ids of the last two pages' writes only (more while
//    timestamps tie) and treats anything strictly newer than what it forgot as written. Without a
//    timeField it keeps every id. Totals cannot size an id window: an insert plus a removal further
//    down leave every total unchanged yet push written items onto the next page.

import { UsageError } from './errors.js';
import { walkPages } from './page-walk.js';

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}
export interface PageResult<T> {
  items: T[];
  meta: PageMeta;
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
  /** e.g. 'saved_at'; required when since is set. */
  timeField?: string;
  /** Abort: stop fetching, reject with the signal's reason. */
  signal?: AbortSignal;
  onProgress?(p: PageProgress): void;
}

export function paginate<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncIterable<T> {
  return flattenPages(paginatePages(fetchPage, options));
}

/**
 * The same items as paginate(), in the same order, handed out in batches (a page's worth, never empty):
 * for consumers that write many items at once, an await per page instead of per item.
 */
export function paginatePages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncIterable<T[]> {
  validateOptions(options);
  return walkPages(fetchPage, options);
}

/** Batches back to single items. */
export async function* flattenPages<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
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
