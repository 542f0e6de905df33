// The paging algorithm as its five phases, in run order (README.md beside this file argues each step):
// anchor, pipelined window, head certification, careful walk, reconcile.
import type { ProtocolError } from '../errors.js';
import { identityText } from '../exact-number.js';
import { timestampMs } from '../timestamp.js';
import { type Anchor, HeadReads, type ItemLens } from './heads.js';
import { IdSet } from './id-set.js';
import type { FetchPage, PageProgress, PageResult, PaginateOptions } from './index.js';
import { type Cursor, cursorAfterHead, expectedLength, judgePage } from './positions.js';
import {
  type Ledger,
  missingIdError,
  newLedger,
  notACount,
  oddList,
  oddPageError,
  pageSizeOf,
  reconcile,
  repeatedPageError,
  uncertifiable,
} from './reconcile.js';
import { PageWindow, Requests } from './requests.js';

/** Pages refused in a row before we give up on a list that keeps shrinking under us. */
const MAX_REFUSED_IN_A_ROW = 50;
/** An odd page (short, too long, all repeats) is read once more before the run stops on it. */
const ODD_PAGE_RETRIES = 1;

/** The page that ended the window by disagreeing with the anchor: later than the anchor, so judged, not re-read. */
type Disagreed<T> = { page: number; result: PageResult<T> };
/** `olderThanFirst`: every item the window wrote is older than the first page's newest, which vouches. */
type WindowRead<T> = {
  trusted: number;
  stop: boolean;
  disagreed: Disagreed<T> | undefined;
  olderThanFirst: boolean;
};
/** After the window: the run is over, or the careful walk resumes (with the page that disagreed, if kept). */
type Resume<T> = { done: boolean; disagreed?: Disagreed<T> | undefined };

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
  readonly #ledger: Ledger = newLedger();
  readonly #progress: PageProgress = { pagesFetched: 0, totalPages: 0, itemsYielded: 0, total: 0 };
  readonly #maxItems: number;
  readonly #startPage: number;
  #pageSize: number;
  #cursor: Cursor = { covered: 0, total: 0 };
  /** Filled in from the first page (phase 1). */
  readonly #anchor: Anchor = { total: 0, ids: new Set<string>(), newestMs: Number.POSITIVE_INFINITY };
  readonly #heads: HeadReads<T>;
  /** The window was not vouched for: the careful walk reads again from page 2, around what it wrote. */
  #rereading = false;

  constructor(fetchPage: FetchPage<T>, options: PaginateOptions) {
    this.requests = new Requests(fetchPage, options.signal);
    this.#options = options;
    this.#maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.#startPage = options.startPage ?? 1;
    this.#pageSize = options.limit;
    const lens: ItemLens<T> = {
      idOf: (item) => this.#idOf(item),
      isWritten: (item) => this.#isWritten(item),
      timeOf: (item) => this.#timeOf(item),
    };
    this.#heads = new HeadReads(this.requests, this.#anchor, this.#ledger, lens);
  }

  async *run(): AsyncGenerator<T[]> {
    const anchor = await this.#readAnchor();
    let disagreed: Disagreed<T> | undefined;
    // The next pages go out before the anchor is handed over: writing it overlaps their latency.
    const window = anchor.stop ? undefined : this.#openWindow();
    try {
      yield* this.#handOut(anchor.batch);
      if (anchor.stop) return this.#finish();
      if (window) {
        const read = yield* this.#pipelined(window);
        const resume = await this.#certifyWindow(read);
        if (resume.done) return this.#finish();
        disagreed = resume.disagreed;
      }
    } finally {
      window?.discard();
    }
    yield* this.#careful(disagreed);
    this.#finish();
  }

  /** Phase 1: the first page alone. Its total sizes the run; its ids and times make the anchor. */
  async #readAnchor(): Promise<{ batch: T[]; stop: boolean }> {
    const start = this.#startPage;
    const first = await this.#data(this.requests.fetch(start, this.#options.limit), start);
    this.#pageSize = pageSizeOf(first, this.#options.limit, start);
    const total = first.meta.total;
    this.#written = new IdSet(Math.min(total, this.#maxItems));
    const times = first.items.map((item) => this.#timeOf(item) ?? Number.NEGATIVE_INFINITY);
    this.#anchor.total = total;
    this.#anchor.ids = new Set(first.items.map((item) => this.#idOf(item)).filter((id) => id !== undefined));
    // Past page 1 the newest items are out of sight: no time can hint at items saved meanwhile.
    this.#anchor.newestMs = times.length > 0 && start === 1 ? Math.max(...times) : Number.POSITIVE_INFINITY;
    this.#ledger.startTotal = total;
    this.#cursor = { covered: (start - 1) * this.#pageSize, total };
    const verdict = this.#judge(start, first);
    if (verdict.kind !== 'accepted') throw verdict.kind === 'odd' ? verdict.error : oddList();
    return this.#take(verdict.fresh, verdict.done);
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

  /** Phase 2: pages 2.. while each agrees with the anchor; one that disagrees goes to the careful walk. */
  async *#pipelined(window: PageWindow<T>): AsyncGenerator<T[], WindowRead<T>> {
    let trusted = 0; // pages from 3 on: read alongside their predecessor, they rest on the anchor holding
    let stop = false;
    let disagreed: Disagreed<T> | undefined;
    const firstNewest = this.#anchor.newestMs;
    let olderThanFirst = this.#options.timeField !== undefined && Number.isFinite(firstNewest);
    for (let page = 2; page <= window.plan.last && !stop; page += 1) {
      const result = await this.#data(window.take(page), page);
      const { newest, untimed } = this.#newestTime(result.items);
      olderThanFirst &&= !untimed && newest < firstNewest;
      if (!this.#agreesWithAnchor(page, result) || !(await this.#heads.oldDespiteTime(newest))) {
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
    return { trusted, stop, disagreed, olderThanFirst };
  }

  /** Phase 3: one head read vouches for the window. `done` when the run may end here. */
  async #certifyWindow({ trusted, stop, disagreed, olderThanFirst }: WindowRead<T>): Promise<Resume<T>> {
    const reachedEnd = () => stop || this.#cursor.covered >= this.#cursor.total;
    // Page 2 alone needs no vouching when the window ends with it; a later page that disagreed was read
    // alongside page 2, so the head read vouches for page 2 first (README.md, invariant 3).
    if (disagreed?.page === 2) return { done: false, disagreed };
    // Nor do pages whose every item is older than the first page's newest (README.md, invariant 3).
    if ((trusted === 0 || olderThanFirst) && !disagreed) return { done: reachedEnd() };
    const head = await this.#heads.certify(this.#pageSize);
    if (!head.certified && stop) throw uncertifiable(this.#ledger, this.#progress.itemsYielded);
    if (head.certified && !disagreed) return { done: reachedEnd() };
    // Go on from the head read's snapshot (positions.ts, cursorAfterHead); uncertified, only the first
    // page is trusted to have been written.
    const trustedUpTo = head.certified ? this.#cursor.covered : this.#pageSize;
    this.#rereading = !head.certified;
    if (head.saved === undefined) {
      this.#cursor = { covered: trustedUpTo, total: this.#anchor.total };
      return { done: false, disagreed: head.certified ? disagreed : undefined };
    }
    this.#cursor = cursorAfterHead({ saved: head.saved, total: head.total }, this.#anchor.total, trustedUpTo);
    return { done: false };
  }

  #agreesWithAnchor(page: number, result: PageResult<T>): boolean {
    const { total } = this.#anchor;
    if (result.meta.total !== total || result.items.length !== expectedLength(total, page, this.#pageSize))
      return false;
    return !result.items.some((item) => this.#isWritten(item));
  }

  /** Phase 4: each page requested after the previous answer arrived, so each snapshot is later than the cursor's. */
  async *#careful(pending?: Disagreed<T>): AsyncGenerator<T[]> {
    let refused = 0;
    let odd = 0;
    for (let next = pending; ; next = undefined) {
      if (this.#progress.itemsYielded >= this.#maxItems) return;
      const page = next?.page ?? Math.floor(this.#cursor.covered / this.#pageSize) + 1;
      const result = next?.result ?? (await this.#data(this.requests.fetch(page, this.#pageSize), page));
      const before = this.#cursor;
      const verdict = this.#judge(page, result);
      if (
        verdict.kind === 'accepted' &&
        verdict.allRepeats &&
        !(await this.#heads.changesExplainRepeats(verdict.fresh.length))
      ) {
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
      const fresh = await this.#heads.dropSavedDuringRun(verdict.fresh);
      const { batch, stop } = this.#take(fresh, verdict.done);
      if (this.#rereading) this.#ledger.rereadWritten += batch.length;
      yield* this.#handOut(batch);
      if (stop) return;
    }
  }

  /** A page judged against the cursor (positions.ts), whose snapshot must be earlier than the page's. */
  #judge(page: number, result: PageResult<T>): Verdict<T> {
    const { items, meta } = result;
    const judged = judgePage(this.#cursor, page, items.length, meta.total, this.#pageSize);
    if (judged.kind === 'refused') {
      this.#cursor = judged.cursor;
      return { kind: 'refused' };
    }
    if (judged.kind === 'odd') {
      const error = oddPageError(page, items.length, this.#pageSize, meta.total, this.#progress);
      return { kind: 'odd', error };
    }
    // Below the carried cursor: written already, or saved during the run.
    for (const item of items.slice(0, judged.skip))
      if (!this.#isWritten(item)) this.#ledger.savedSkipped += 1;
    const fresh = items.slice(judged.skip);
    const allRepeats =
      items.length === this.#pageSize && fresh.length > 0 && fresh.every((item) => this.#isWritten(item));
    this.#cursor = judged.cursor;
    this.#ledger.endTotal = meta.total;
    return { kind: 'accepted', fresh, allRepeats, done: judged.last };
  }

  /** The items to write: repeats of a written id dropped (and counted), cut at since and maxItems. */
  #take(items: T[], done: boolean): { batch: T[]; stop: boolean } {
    const { since, timeField } = this.#options;
    const batch: T[] = [];
    let stop = done;
    for (const item of items) {
      const id = this.#idOf(item);
      if (since && timeField !== undefined) {
        const ms = this.#timeOf(item);
        if (ms !== undefined && ms <= since.getTime() && !(id !== undefined && this.#written.has(id))) {
          this.#ledger.stoppedEarly = true;
          stop = true;
          break;
        }
      }
      // One lookup: add() says whether the id was written already.
      if (id !== undefined && !this.#written.add(id)) {
        this.#ledger.repeats += 1;
        continue;
      }
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

  /** Counts a data page and checks its ids and total, which every count rests on. */
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

  /** The newest time on a page, and whether an item has none. */
  #newestTime(items: T[]): { newest: number; untimed: boolean } {
    let newest = Number.NEGATIVE_INFINITY;
    let untimed = false;
    for (const item of items) {
      const ms = this.#timeOf(item);
      if (ms === undefined) untimed = true;
      else newest = Math.max(newest, ms);
    }
    return { newest, untimed };
  }

  #timeOf(item: T): number | undefined {
    const { timeField } = this.#options;
    return timeField === undefined ? undefined : timestampMs(item[timeField]);
  }

  #idOf(item: T): string | undefined {
    return identityText(item[this.#options.idField ?? 'id']);
  }

  #isWritten(item: T): boolean {
    const id = this.#idOf(item);
    return id !== undefined && this.#written.has(id);
  }
}
