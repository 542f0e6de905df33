// The paging algorithm; README.md beside this file says why each step is sound. In short: the first
// page alone (the anchor), then a pipelined window that trusts pages only while they agree with the
// anchor, one head read that certifies them, and one page at a time (each judged by positions, ids and
// totals) once the list is seen changing.

import type { ProtocolError } from '../errors.js';
import { identityText } from '../exact-number.js';
import { timestampMs } from '../timestamp.js';
import { IdSet } from './id-set.js';
import { type Ledger, newLedger, reconcile } from './reconcile.js';
import { Requests } from './requests.js';
import {
  missingIdError,
  notACount,
  oddList,
  oddPageError,
  pageSizeOf,
  repeatedPageError,
  uncertifiable,
} from './server-checks.js';
import type { FetchPage, PageProgress, PageResult, PaginateOptions } from './types.js';
import { PageWindow } from './window.js';

/** The head read asks for the most the API gives: the further it sees, the more it can certify. */
const HEAD_LIMIT = 100;
/** Pages refused in a row before we give up on a list that keeps shrinking under us. */
const MAX_REFUSED_IN_A_ROW = 50;
/** An odd page (short, too long, all repeats) is read once more before the run stops on it. */
const ODD_PAGE_RETRIES = 1;

/** In the snapshot that reported `total`, every item that existed at the start and sat below `covered` was written. */
interface Cursor {
  covered: number;
  total: number;
}

type Steady<T> = { done: boolean; disagreed?: { page: number; result: PageResult<T> } | undefined };

type Verdict<T> =
  | { kind: 'refused' }
  | { kind: 'odd'; error: ProtocolError }
  /** allRepeats: a full page of items already written, which only a changing list explains. */
  | { kind: 'accepted'; fresh: T[]; done: boolean; allRepeats: boolean };

export async function* walkPages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncGenerator<T[]> {
  if ((options.maxItems ?? 1) <= 0) return;
  const walk = new Walk(fetchPage, options);
  try {
    yield* walk.run();
  } catch (error) {
    throw walk.requests.errorFor(error);
  } finally {
    walk.requests.close();
  }
}

class Walk<T extends Record<string, unknown>> {
  readonly requests: Requests<T>;
  readonly #options: PaginateOptions;
  #written = new IdSet();
  /** Ids proven not owed: found by a head read in front of every written item, or gone from the list. */
  readonly #notOwed = new Set<string>();
  readonly #ledger: Ledger = newLedger();
  readonly #progress: PageProgress = { pagesFetched: 0, totalPages: 0, itemsYielded: 0, total: 0 };
  readonly #maxItems: number;
  readonly #startPage: number;
  #pageSize: number;
  #cursor: Cursor = { covered: 0, total: 0 };
  /** The anchor: the first page's total and ids, the list every pipelined page must agree with. */
  #anchor = { total: 0, ids: new Set<string>(), newestMs: Number.POSITIVE_INFINITY };

  constructor(fetchPage: FetchPage<T>, options: PaginateOptions) {
    this.requests = new Requests(fetchPage, options.signal);
    this.#options = options;
    this.#maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.#startPage = options.startPage ?? 1;
    this.#pageSize = options.limit;
  }

  async *run(): AsyncGenerator<T[]> {
    const start = this.#startPage;
    const first = await this.#data(this.requests.fetch(start, this.#options.limit), start);
    this.#pageSize = pageSizeOf(first, this.#options.limit, start);
    const total = first.meta.total;
    this.#written = new IdSet(Math.min(total, this.#maxItems));
    const times = first.items.map((item) => this.#timeOf(item) ?? Number.NEGATIVE_INFINITY);
    this.#anchor = {
      total,
      ids: new Set(first.items.map((item) => this.#idOf(item)).filter(isText)),
      newestMs: times.length > 0 && this.#startPage === 1 ? Math.max(...times) : Number.POSITIVE_INFINITY,
    };
    this.#ledger.startTotal = total;
    this.#cursor = { covered: (start - 1) * this.#pageSize, total };
    const verdict = this.#judge(start, first);
    if (verdict.kind !== 'accepted') throw verdict.kind === 'odd' ? verdict.error : oddList();
    const { batch, stop } = this.#take(verdict.fresh, verdict.done);
    let pending: { page: number; result: PageResult<T> } | undefined;
    // The next pages go out before this one is handed over: writing it overlaps their latency.
    const window = stop ? undefined : this.#openWindow();
    try {
      yield* this.#handOut(batch);
      if (stop) return this.#finish();
      if (window) {
        const steady = yield* this.#steady(window);
        if (steady.done) return this.#finish();
        pending = steady.disagreed;
      }
    } finally {
      window?.discard();
    }
    yield* this.#careful(pending);
    this.#finish();
  }

  /** Pipelining pays only from page 1 and with more than one page left to read. */
  #openWindow(): PageWindow<T> | undefined {
    const concurrency = this.#options.concurrency ?? 4;
    const last = Math.min(
      Math.ceil(this.#anchor.total / this.#pageSize),
      Math.ceil(this.#maxItems / this.#pageSize),
    );
    if (concurrency <= 1 || this.#startPage !== 1 || last < 2) return undefined;
    const plan = { first: 2, last, limit: this.#pageSize, width: concurrency, hold: 4 * concurrency };
    return new PageWindow(this.requests.group(), plan);
  }

  /**
   * Pages 2.. while each agrees with the anchor (same total, full, nothing already written on it).
   * Returns `done` when the run may end here, else the page that disagreed (if any): its snapshot is
   * later than the anchor's, so it is judged rather than read again.
   */
  async *#steady(window: PageWindow<T>): AsyncGenerator<T[], Steady<T>> {
    let trusted = 0; // pages from 3 on: read alongside their predecessor, they rest on the anchor holding
    let stop = false;
    let disagreed: { page: number; result: PageResult<T> } | undefined;
    for (let page = 2; page <= window.plan.last && !stop; page += 1) {
      const result = await this.#data(window.take(page), page);
      if (!this.#agreesWithAnchor(page, result) || !(await this.#oldDespiteTime(result))) {
        disagreed = { page, result };
        break;
      }
      if (page >= 3) trusted += 1;
      this.#cursor = { covered: page * this.#pageSize, total: this.#anchor.total };
      const taken = this.#take(result.items, false);
      stop = taken.stop;
      yield* this.#handOut(taken.batch);
    }
    window.discard();
    if (trusted === 0)
      return disagreed
        ? { done: false, disagreed }
        : { done: stop || this.#cursor.covered >= this.#cursor.total };
    const head = await this.#certify();
    if (!head.certified && stop) throw uncertifiable(this.#ledger, this.#progress.itemsYielded);
    if (head.certified && !disagreed) return { done: stop || this.#cursor.covered >= this.#cursor.total };
    // Go on from the head read's snapshot, which is later than any page read so far: positions
    // before the first anchor item are items saved meanwhile; after them come the written ones,
    // fewer by what was deleted. Uncertified, only the first page is trusted to have been written.
    const trustedUpTo = head.certified ? this.#cursor.covered : this.#pageSize;
    if (head.saved === undefined) {
      this.#cursor = { covered: trustedUpTo, total: this.#anchor.total };
      return { done: false, disagreed: head.certified ? disagreed : undefined };
    }
    const deleted = Math.max(0, head.saved - (head.total - this.#anchor.total));
    this.#cursor = { covered: head.saved + Math.max(0, trustedUpTo - deleted), total: head.total };
    return { done: false };
  }

  /**
   * One head read certifies the pages read alongside each other: it finds where the anchor's first
   * page now starts (how many items were saved since) and so how many of the anchor's items were
   * deleted. A pipelined page can only have gone wrong if more than two pages' worth were.
   */
  async #certify(): Promise<{ certified: boolean; saved?: number; total: number }> {
    const { saved, total } = await this.#readHead();
    if (saved === undefined) return { certified: false, total };
    const deleted = saved - (total - this.#anchor.total);
    return { certified: deleted >= 0 && deleted < 2 * this.#pageSize, saved, total };
  }

  /**
   * Reads the head of the list: where the anchor's first page now starts (`saved`: how many items
   * stand in front of it, all saved during the run), and the total. Remembers the items it proves new.
   */
  async #readHead(): Promise<{ saved?: number; total: number; all?: Set<string> }> {
    const head = await this.requests.fetch(1, HEAD_LIMIT);
    const total = head.meta.total;
    const all =
      head.items.length >= total ? new Set(head.items.map((item) => this.#idOf(item) ?? '')) : undefined;
    const saved = head.items.findIndex((item) => this.#anchor.ids.has(this.#idOf(item) ?? ''));
    this.#ledger.endTotal = total;
    if (total !== this.#anchor.total || saved !== 0) this.#ledger.changed = true;
    // Unwritten items in front of any written one are new: what was written of the old items is
    // everything older items stand behind, and a written new item has only new items in front.
    const firstWritten = head.items.findIndex((item) => this.#isWritten(item));
    for (const item of head.items.slice(0, Math.max(0, firstWritten)))
      this.#notOwed.add(this.#idOf(item) ?? '');
    // No written item left in view (the ones written were deleted): position tells nothing, so here
    // alone a time newer than anything on the first page decides.
    if (firstWritten < 0) {
      for (const item of head.items)
        if (this.#newerThanAnchor(item)) this.#notOwed.add(this.#idOf(item) ?? '');
    }
    if (saved < 0) return all ? { total, all } : { total };
    this.#ledger.savedUnseen = Math.max(this.#ledger.savedUnseen, saved);
    return all ? { saved, total, all } : { saved, total };
  }

  /**
   * A page with an item newer than anything on the first page may hold items saved during the run. A
   * head read settles it: nothing in front of the first page and the same total mean nothing was
   * saved or deleted up to then, so the item was re-saved before the run and is old. Each such read
   * raises the bar, so a list with re-saved items costs one read per newer time, not one per page.
   */
  async #oldDespiteTime(result: PageResult<T>): Promise<boolean> {
    const times = result.items.map((item) => this.#timeOf(item) ?? Number.NEGATIVE_INFINITY);
    const newest = Math.max(Number.NEGATIVE_INFINITY, ...times);
    if (newest <= this.#anchor.newestMs) return true;
    const head = await this.#readHead();
    if (head.saved !== 0 || head.total !== this.#anchor.total) return false;
    this.#anchor.newestMs = newest;
    return true;
  }

  #agreesWithAnchor(page: number, result: PageResult<T>): boolean {
    const { total } = this.#anchor;
    const expected = Math.min(this.#pageSize, total - (page - 1) * this.#pageSize);
    if (result.meta.total !== total || result.items.length !== expected) return false;
    return !result.items.some((item) => this.#isWritten(item));
  }

  /** True when the list still starts with the anchor's first page and holds as many items. */
  async #headUnchanged(page: PageResult<T>): Promise<boolean> {
    if (page.meta.total !== this.#anchor.total) return false;
    const head = await this.#readHead();
    return head.saved === 0 && head.total === this.#anchor.total;
  }

  /**
   * Items saved during the run stand in front of every older item, so only a head read, which finds
   * them in front of the anchor's first page, proves an item new; proven new, it is left out. The read
   * is spent when a page hints at new items: an unwritten item ahead of a written one (unless that one
   * is a repeated id), or, once the list is seen changing, a time newer than anything on the first page
   * (unless re-saved). A hint alone never drops an item: what the head read cannot place is written.
   */
  async #dropSavedDuringRun(fresh: T[]): Promise<T[]> {
    const unplaced = (item: T) => !this.#isWritten(item) && !this.#notOwed.has(this.#idOf(item) ?? '');
    const lastWritten = findLastIndex(fresh, (item) => this.#isWritten(item));
    const hinted =
      fresh.slice(0, Math.max(0, lastWritten)).some(unplaced) ||
      (this.#ledger.changed && fresh.some((item) => unplaced(item) && this.#newerThanAnchor(item)));
    if (hinted) {
      const head = await this.#readHead();
      // A head read that saw the whole list proves the hinted items it did not see gone: not owed.
      if (head.all)
        for (const item of fresh)
          if (unplaced(item) && !head.all.has(this.#idOf(item) ?? ''))
            this.#notOwed.add(this.#idOf(item) ?? '');
    }
    // On one page, whatever stands in front of a new item is new too.
    const lastNew = findLastIndex(fresh, (item) => this.#notOwed.has(this.#idOf(item) ?? ''));
    for (const item of fresh.slice(0, lastNew + 1))
      if (!this.#isWritten(item)) this.#ledger.savedSkipped += 1;
    return fresh.slice(lastNew + 1);
  }

  #newerThanAnchor(item: T): boolean {
    return (this.#timeOf(item) ?? Number.NEGATIVE_INFINITY) > this.#anchor.newestMs;
  }

  #timeOf(item: T): number | undefined {
    const { timeField } = this.#options;
    return timeField === undefined ? undefined : timestampMs(item[timeField]);
  }

  /** Each page requested after the previous answer arrived, so each snapshot is later than the cursor's. */
  async *#careful(pending?: { page: number; result: PageResult<T> }): AsyncGenerator<T[]> {
    let refused = 0;
    let odd = 0;
    for (let next = pending; ; next = undefined) {
      if (this.#progress.itemsYielded >= this.#maxItems) return;
      const page = next?.page ?? Math.floor(this.#cursor.covered / this.#pageSize) + 1;
      const result = next?.result ?? (await this.#data(this.requests.fetch(page, this.#pageSize), page));
      const before = this.#cursor;
      const verdict = this.#judge(page, result);
      if (verdict.kind === 'accepted' && verdict.allRepeats && (await this.#headUnchanged(result))) {
        this.#cursor = before;
        if (++odd > ODD_PAGE_RETRIES)
          throw repeatedPageError(page, this.#progress.itemsYielded, result.meta.total);
        continue;
      }
      if (verdict.kind === 'refused') {
        if (++refused > MAX_REFUSED_IN_A_ROW) throw oddList();
        continue;
      }
      if (verdict.kind === 'odd') {
        if (++odd > ODD_PAGE_RETRIES) throw verdict.error;
        continue;
      }
      refused = 0;
      odd = 0;
      const { batch, stop } = this.#take(await this.#dropSavedDuringRun(verdict.fresh), verdict.done);
      yield* this.#handOut(batch);
      if (stop) return;
    }
  }

  /**
   * A page judged against the cursor, whose snapshot must be earlier. Old items move back by at least
   * how much the total grew (or forward by at most how much it shrank), so the cursor carries over as
   * covered + (new total - old total); positions below it hold written items or items saved meanwhile.
   */
  #judge(page: number, result: PageResult<T>): Verdict<T> {
    const { items, meta } = result;
    const size = this.#pageSize;
    const covered = Math.max(0, this.#cursor.covered + meta.total - this.#cursor.total);
    const windowStart = (page - 1) * size;
    if (windowStart > covered) {
      this.#cursor = { covered, total: meta.total };
      return { kind: 'refused' };
    }
    const owed = Math.max(0, Math.min(size, meta.total - windowStart));
    if (items.length < owed || items.length > size) {
      return { kind: 'odd', error: oddPageError(page, items.length, size, meta.total, this.#progress) };
    }
    const skip = Math.min(items.length, covered - windowStart);
    for (const item of items.slice(0, skip)) if (!this.#isWritten(item)) this.#ledger.savedSkipped += 1;
    const fresh = items.slice(skip);
    const allRepeats =
      items.length === size && fresh.length > 0 && fresh.every((item) => this.#isWritten(item));
    this.#cursor = { covered: Math.max(covered, windowStart + items.length), total: meta.total };
    this.#ledger.endTotal = meta.total;
    return {
      kind: 'accepted',
      fresh,
      allRepeats,
      done: items.length < size || this.#cursor.covered >= meta.total,
    };
  }

  /** The items to write: repeats of a written id dropped (and counted), cut at since and maxItems. */
  #take(items: T[], done: boolean): { batch: T[]; stop: boolean } {
    const { since, timeField } = this.#options;
    const batch: T[] = [];
    let stop = done;
    for (const item of items) {
      const id = this.#idOf(item);
      if (id !== undefined && this.#written.has(id)) {
        this.#ledger.repeats += 1;
        continue;
      }
      if (since && timeField !== undefined) {
        const ms = this.#timeOf(item);
        if (ms !== undefined && ms <= since.getTime()) {
          this.#ledger.stoppedEarly = true;
          stop = true;
          break;
        }
      }
      if (id !== undefined) this.#written.add(id);
      batch.push(item);
      if (this.#progress.itemsYielded + batch.length >= this.#maxItems) {
        this.#ledger.stoppedEarly = true;
        stop = true;
        break;
      }
    }
    return { batch, stop };
  }

  *#handOut(batch: T[]): Generator<T[]> {
    this.#progress.itemsYielded += batch.length;
    if (batch.length > 0) {
      yield batch;
      this.requests.throwIfAborted();
    }
    this.#options.onProgress?.({ ...this.#progress });
  }

  #finish(): void {
    this.#ledger.written = this.#progress.itemsYielded;
    this.#ledger.offset = (this.#startPage - 1) * this.#pageSize;
    for (const notice of reconcile(this.#ledger)) this.#options.onNotice?.(notice);
  }

  /** Counts a data page and checks the one thing every count rests on. */
  async #data(request: Promise<PageResult<T>>, page: number): Promise<PageResult<T>> {
    const result = await request;
    // Every page is read by its ids: one without them cannot be kept exact (a single page can).
    for (const item of result.items) {
      if (this.#idOf(item) === undefined) throw missingIdError(this.#options.idField ?? 'id', page);
    }
    const { total } = result.meta;
    if (!Number.isSafeInteger(total) || total < 0) throw notACount(page, total, this.#progress.itemsYielded);
    if (this.#progress.pagesFetched > 0 && total !== this.#anchor.total) this.#ledger.changed = true;
    this.#progress.pagesFetched += 1;
    this.#progress.total = total;
    this.#progress.totalPages = result.meta.totalPages;
    return result;
  }

  #idOf(item: T): string | undefined {
    return identityText(item[this.#options.idField ?? 'id']);
  }

  #isWritten(item: T): boolean {
    const id = this.#idOf(item);
    return id !== undefined && this.#written.has(id);
  }
}

function findLastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (predicate(items[index] as T)) return index;
  return -1;
}

function isText(value: string | undefined): value is string {
  return value !== undefined;
}
