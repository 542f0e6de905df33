// The loop behind paginate(): the first page on its own, then the pipeline (page-pipeline.ts) while
// the list holds still, then one page at a time once it has changed. Why this is correct is explained at
// the top of paginate.ts; the position arithmetic lives in page-cursor.ts.

import { ProtocolError } from './errors.js';
import { type Cursor, coveredAt, judgePage, type PageVerdict } from './page-cursor.js';
import { PageFetcher } from './page-fetcher.js';
import { type CursorClock, type Head, PagePipeline } from './page-pipeline.js';
import { planRound } from './page-plan.js';
import { YieldedItems } from './page-yielded.js';
import type { FetchPage, PageProgress, PageResult, PaginateOptions } from './paginate.js';
import { timestampMs } from './timestamp.js';

/** Probes ask for one item: only the list's first id and its total matter. */
const PROBE_LIMIT = 1;
/** Pages refused in a row before we give up on a list that keeps shrinking under us. */
const MAX_REFUSED_IN_A_ROW = 50;
/** Page requests between two head probes, at least: ~6% extra requests at 16. */
const MIN_PROBE_EVERY = 16;

/**
 * Yields the items to write, a page's worth at a time (never an empty batch): one await per page rather
 * than per item, which is most of the CPU an export spends outside parsing and rendering.
 */
export async function* walkPages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncGenerator<T[]> {
  if ((options.maxItems ?? 1) <= 0) return;
  const walk = new PageWalk(fetchPage, options);
  try {
    yield* walk.run();
  } catch (error) {
    throw walk.fetcher.errorFor(error);
  } finally {
    walk.fetcher.close();
  }
}

/** A started pipeline, the cursor clock it started at, and how to cancel what it still has in flight. */
interface Pipelined<T> {
  pipeline: PagePipeline<T>;
  clock: CursorClock;
  discard(): void;
}

class PageWalk<T extends Record<string, unknown>> {
  readonly fetcher: PageFetcher<T>;
  private written: YieldedItems<T>;
  private readonly progress: PageProgress = { pagesFetched: 0, totalPages: 0, itemsYielded: 0, total: 0 };
  private readonly maxItems: number;
  private readonly concurrency: number;
  private pageSize: number;
  private cursor: Cursor = { covered: 0, total: 0 };
  /** The time of the first item of the first snapshot: anything newer was saved during the run. */
  private runStartMs: number | undefined;

  constructor(
    fetchPage: FetchPage<T>,
    private readonly options: PaginateOptions,
  ) {
    this.fetcher = new PageFetcher(fetchPage, options.signal);
    this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.concurrency = options.concurrency ?? 4;
    this.pageSize = options.limit;
    this.written = this.writtenRecord();
  }

  async *run(): AsyncGenerator<T[]> {
    const startPage = this.options.startPage ?? 1;
    const first = await this.fetchData(this.fetcher.fetch(startPage, this.options.limit));
    this.pageSize = pageSizeOf(first.meta.limit, this.options.limit);
    this.written = this.writtenRecord();
    this.cursor = { covered: (startPage - 1) * this.pageSize, total: first.meta.total };
    this.runStartMs = first.items[0] === undefined ? undefined : this.timeOf(first.items[0]);
    const { batch, stop } = this.take(this.judge(startPage, first));
    // The next pages go out before this one is handed over: writing it overlaps their latency.
    const pipelined = stop ? undefined : await this.startPipeline(startPage, first);
    try {
      yield* this.handOut(batch);
      if (stop) return;
      if (pipelined && (yield* this.pipelined(pipelined))) return;
    } finally {
      pipelined?.discard();
    }
    yield* this.sequential();
  }

  /** The pages still to read, up to `width` of them, for the cursor as it stands. */
  private remainingPages(width: number): number[] {
    const remaining = this.maxItems - this.progress.itemsYielded;
    return planRound(this.cursor, this.pageSize, width, remaining).pages;
  }

  /** A pipeline with its first window of requests sent, when more than one page is left to read. */
  private async startPipeline(startPage: number, first: PageResult<T>): Promise<Pipelined<T> | undefined> {
    if (this.concurrency <= 1 || this.remainingPages(2).length <= 1) return undefined;
    const anchor = startPage === 1 ? this.headOf(first) : await this.probe();
    this.cursor = { covered: coveredAt(this.cursor, anchor.total), total: anchor.total };
    const pages = this.remainingPages(Number.POSITIVE_INFINITY);
    const [firstPage, lastPage] = [pages[0], pages[pages.length - 1]];
    if (firstPage === undefined || lastPage === undefined) return undefined;
    const round = this.fetcher.openRound();
    const probeEvery = Math.max(MIN_PROBE_EVERY, 2 * this.concurrency);
    const plan = {
      ...{ anchor, firstPage, lastPage, window: this.concurrency, probeEvery },
      holdLimit: probeEvery + 2 * this.concurrency,
    };
    const pipeline = new PagePipeline(
      plan,
      (page) => this.fetchData(round.fetch(page, this.options.limit)),
      async () => this.headOf(await round.fetch(1, PROBE_LIMIT)),
    );
    // Page 1 or the start probe was read before any pipelined page was sent.
    const clock: CursorClock = { readyAt: 0, onAnchorList: true };
    pipeline.start(clock);
    return {
      pipeline,
      clock,
      discard: () => {
        pipeline.stop();
        round.discard();
      },
    };
  }

  /** True when the run is over; false when the rest must be read one page at a time. */
  private async *pipelined({ pipeline, clock: startClock }: Pipelined<T>): AsyncGenerator<T[], boolean> {
    let clock = startClock;
    for (;;) {
      const step = await pipeline.next(clock);
      if (step.kind === 'end') return false;
      if (step.kind === 'changed') return false; // a list that changed once will likely change again
      const verdict = this.judge(step.page, step.result);
      if (!verdict.accepted) {
        this.cursor = verdict.cursor;
        return false;
      }
      if (yield* this.emit(verdict)) return true;
      clock = { readyAt: step.readyAt, onAnchorList: step.kind === 'confirmed' };
    }
  }

  /** Each page requested after the previous one was read, so each snapshot is later than the cursor's. */
  private async *sequential(): AsyncGenerator<T[]> {
    let refusedInARow = 0;
    for (;;) {
      const [page] = this.remainingPages(1);
      if (page === undefined) return;
      const verdict = this.judge(page, await this.fetchData(this.fetcher.fetch(page, this.options.limit)));
      if (!verdict.accepted) {
        this.cursor = verdict.cursor;
        refusedInARow += 1;
        if (refusedInARow > MAX_REFUSED_IN_A_ROW) {
          throw new ProtocolError('the list kept shrinking faster than it could be paged', 'try again later');
        }
        continue;
      }
      refusedInARow = 0;
      if (yield* this.emit(verdict)) return;
    }
  }

  /** Yields the verdict's items up to `since` or `maxItems`; true when the run ends with them. */
  private *emit(verdict: PageVerdict<T>): Generator<T[], boolean> {
    const { batch, stop } = this.take(verdict);
    yield* this.handOut(batch);
    return stop;
  }

  /** The verdict's items to write, counted as written; `stop` when the run ends with them. */
  private take(verdict: PageVerdict<T>): { batch: T[]; stop: boolean } {
    this.cursor = verdict.cursor;
    let stop = verdict.done;
    const batch: T[] = [];
    for (const item of verdict.fresh) {
      const ms = this.timeOf(item);
      if (this.savedDuringRun(ms)) continue;
      if (this.isTooOld(ms)) {
        stop = true;
        break;
      }
      this.written.add(item, ms);
      batch.push(item);
      if (this.progress.itemsYielded + batch.length >= this.maxItems) {
        stop = true;
        break;
      }
    }
    this.progress.itemsYielded += batch.length;
    return { batch, stop };
  }

  private *handOut(batch: T[]): Generator<T[]> {
    if (batch.length > 0) {
      yield batch;
      this.fetcher.throwIfAborted();
    }
    this.options.onProgress?.({ ...this.progress });
  }

  private judge(page: number, result: PageResult<T> | undefined): PageVerdict<T> {
    const snapshot = { page, items: result?.items ?? [], total: result?.meta.total ?? 0 };
    return judgePage(
      this.cursor,
      snapshot,
      this.pageSize,
      (item) => this.written.has(item),
      (item) => this.idOf(item),
    );
  }

  private fetchData(request: Promise<PageResult<T>>): Promise<PageResult<T>> {
    const counted = request.then((result) => {
      this.progress.pagesFetched += 1;
      this.progress.total = result.meta.total;
      this.progress.totalPages = result.meta.totalPages;
      return result;
    });
    counted.catch(() => {}); // a page of a discarded pipeline may reject unobserved
    return counted;
  }

  private async probe(): Promise<Head> {
    return this.headOf(await this.fetcher.fetch(1, PROBE_LIMIT));
  }

  /** Ids of recent writes: two pages' worth, more only while timestamps tie (page-yielded.ts). */
  private writtenRecord(): YieldedItems<T> {
    return new YieldedItems<T>(
      2 * this.pageSize,
      (item) => this.idOf(item),
      (item) => this.timeOf(item),
    );
  }

  private headOf(result: PageResult<T>): Head {
    const first = result.items[0];
    return { firstId: first === undefined ? undefined : this.idOf(first), total: result.meta.total };
  }

  private idOf(item: T): string | undefined {
    const value = item[this.options.idField ?? 'id'];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'bigint') return String(value);
    return undefined;
  }

  /** `ms` is the item's time (timeOf); items without one are kept: we cannot show they are older. */
  private isTooOld(ms: number | undefined): boolean {
    return this.options.since !== undefined && ms !== undefined && ms <= this.options.since.getTime();
  }

  /**
   * Saved after the run began: not owed, and once the cursor has fallen back after removals such an
   * item could turn up behind older ones already written. Leaving them all out keeps the output in
   * order and makes an export the list as it was at the start, minus what was deleted meanwhile.
   * Without a timeField this cannot be told, and such items may be written, possibly out of order.
   */
  private savedDuringRun(ms: number | undefined): boolean {
    return this.runStartMs !== undefined && ms !== undefined && ms > this.runStartMs;
  }

  private timeOf(item: T): number | undefined {
    const timeField = this.options.timeField;
    return timeField === undefined ? undefined : timestampMs(item[timeField]);
  }
}

/** A server that caps the page size below what we asked says so in meta.limit: page by its size. */
function pageSizeOf(reported: unknown, requested: number): number {
  return typeof reported === 'number' && Number.isInteger(reported) && reported > 0 && reported < requested
    ? reported
    : requested;
}
