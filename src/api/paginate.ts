// Pagination as an async iterator: every page of a newest-first list, in server order, each item once,
// even while someone saves or deletes items during the run.
//
// THE ALGORITHM. Items that existed when the run began ("old" items) are what we owe.
// 1. A cursor (page-cursor.ts) says: in snapshot S, every old item at a position below `covered` has
//    been yielded. Carried to any LATER snapshot it stays true after subtracting how much the total
//    shrank (an old item can only move toward the front by the number of removals, and the total falls
//    by at least that much minus the inserts). A page is accepted only if its window starts at or before
//    the carried `covered`; otherwise items may have slipped past us and we fetch from `covered` again.
//    Inserts never cause a re-fetch: they push seen items onto later pages, where ids de-duplicate them,
//    and the run simply goes on past the original last page until a short page or `covered >= total`.
// 2. That carry-forward needs the page's snapshot to come after the cursor's. Sequential requests
//    guarantee it. Concurrent requests do not: two pages in flight may be answered in either order, and
//    an insert plus a delete between them leave every total unchanged yet lose an item. So concurrent
//    pages go in rounds bracketed by two head probes (page 1, limit 1) — the end probe of one round is
//    the start probe of the next. If both probes show the same first id and the same total, and every
//    page of the round reported that total too, then no old item was removed (the total would be lower
//    or a surviving insert would lead the list) and no insert was present in any snapshot (the total
//    would be higher): the list was identical for the whole round, so its pages tile it exactly.
// 3. The first page of a round is judged alone at once (it follows the cursor's snapshot); the others
//    wait for the end probe. If the round did not hold, its later pages are dropped and the run goes on
//    sequentially (a list that changed once is likely to change again; each failed round costs a round).
// 4. Items saved during the run are not owed. With a timeField, anything newer than the first item of
//    the first snapshot is left out, so the export is the list as it was at the start minus deletions,
//    strictly newest first. Without one they may be written, and then possibly out of order.
// Cost: one extra small request per round of `concurrency` pages; none at concurrency 1.
// Memory: at most one round of pages, plus the Set of ids seen (strings only: 200k ids is a few MB).

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
  validateOptions(options);
  return walkPages(fetchPage, options);
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
