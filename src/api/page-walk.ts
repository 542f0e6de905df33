// The loop behind paginate(): plan a round of pages, judge them, yield what is owed. Why this is
// correct is explained at the top of paginate.ts; the position arithmetic lives in page-cursor.ts.

import { ProtocolError } from './errors.js';
import { type Cursor, judgePage, type PageVerdict } from './page-cursor.js';
import { PageFetcher, type Round } from './page-fetcher.js';
import { planRound } from './page-plan.js';
import type { FetchPage, PageProgress, PageResult, PaginateOptions } from './paginate.js';

/** Probes ask for one item: only the list's first id and its total matter. */
const PROBE_LIMIT = 1;
/** Pages refused in a row before we give up on a list that keeps shrinking under us. */
const MAX_REFUSED_IN_A_ROW = 50;

/** What a head probe (or page 1) saw: the list's first id and its total. */
interface Head {
  firstId: string | undefined;
  total: number;
}

type RoundOutcome = 'next' | 'refused' | 'stop';

export async function* walkPages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions,
): AsyncGenerator<T> {
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

class PageWalk<T extends Record<string, unknown>> {
  readonly fetcher: PageFetcher<T>;
  private readonly seen = new Set<string>(); // ids only: strings, so 200k of them stay a few MB
  private readonly progress: PageProgress = { pagesFetched: 0, totalPages: 0, itemsYielded: 0, total: 0 };
  private readonly maxItems: number;
  private readonly concurrency: number;
  private pageSize: number;
  private cursor: Cursor = { covered: 0, total: 0 };
  /** The latest head seen in a snapshot no older than the cursor's; undefined when none is. */
  private head: Head | undefined;
  private sequential: boolean;
  /** The time of the first item of the first snapshot: anything newer was saved during the run. */
  private runStartMs: number | undefined;

  constructor(
    fetchPage: FetchPage<T>,
    private readonly options: PaginateOptions,
  ) {
    this.fetcher = new PageFetcher(fetchPage, options.signal);
    this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.concurrency = options.concurrency ?? 4;
    this.sequential = this.concurrency === 1;
    this.pageSize = options.limit;
  }

  async *run(): AsyncGenerator<T> {
    const startPage = this.options.startPage ?? 1;
    const first = await this.fetchData(this.fetcher.fetch(startPage, this.options.limit));
    this.pageSize = pageSizeOf(first.meta.limit, this.options.limit);
    this.cursor = { covered: (startPage - 1) * this.pageSize, total: first.meta.total };
    if (startPage === 1) this.head = this.headOf(first);
    this.runStartMs = first.items[0] === undefined ? undefined : this.timeOf(first.items[0]);
    if (yield* this.emit(this.judge(startPage, first))) return;
    let refusedInARow = 0;
    for (;;) {
      const pages = await this.planNextRound();
      if (pages.length === 0) return;
      const round = this.fetcher.openRound();
      try {
        const outcome = yield* this.runRound(round, pages);
        if (outcome === 'stop') return;
        refusedInARow = outcome === 'refused' ? refusedInARow + 1 : 0;
      } finally {
        round.discard();
      }
      if (refusedInARow > MAX_REFUSED_IN_A_ROW) {
        throw new ProtocolError('the list kept shrinking faster than it could be paged', 'try again later');
      }
    }
  }

  private async planNextRound(): Promise<number[]> {
    const remaining = this.maxItems - this.progress.itemsYielded;
    const width = this.sequential ? 1 : this.concurrency;
    const plan = planRound(this.cursor, this.pageSize, width, remaining);
    if (plan.pages.length <= 1) return plan.pages;
    // Start probe: a snapshot after the cursor's, taken before any page of the round is requested.
    this.head ??= await this.probe();
    return planRound(this.cursor, this.pageSize, width, remaining, this.head.total).pages;
  }

  private async *runRound(round: Round<T>, pages: number[]): AsyncGenerator<T, RoundOutcome> {
    const pending = pages.map((page) => this.fetchData(round.fetch(page, this.options.limit)));
    const [leadPage = 1] = pages;
    const lead = this.judge(leadPage, await pending[0]);
    if (!lead.accepted) {
      this.cursor = lead.cursor;
      this.head = undefined;
      return 'refused';
    }
    if (yield* this.emit(lead)) return 'stop';
    if (pending.length === 1) return 'next';
    const later = await this.awaitNeeded(round, pending.slice(1));
    const endProbe = await this.probe();
    if (!this.roundHeld(endProbe, [lead.cursor.total, ...later.map((result) => result.meta.total)])) {
      // Pages after the lead may have read a different list: drop them and go on one page at a time.
      this.sequential = true;
      this.head = undefined;
      return 'next';
    }
    this.head = endProbe;
    for (const [index, result] of later.entries()) {
      const verdict = this.judge(leadPage + 1 + index, result);
      if (!verdict.accepted) return 'next'; // cannot happen when the round held; the next round re-fetches
      if (yield* this.emit(verdict)) return 'stop';
    }
    return 'next';
  }

  /** Later pages in order, up to the one where the list ends or `since` cuts it; the rest are cancelled. */
  private async awaitNeeded(round: Round<T>, pending: Promise<PageResult<T>>[]): Promise<PageResult<T>[]> {
    const results: PageResult<T>[] = [];
    for (const page of pending) {
      const result = await page;
      results.push(result);
      if (result.items.length < this.pageSize || result.items.some((item) => this.isTooOld(item))) {
        round.discard();
        break;
      }
    }
    return results;
  }

  private roundHeld(endProbe: Head, pageTotals: number[]): boolean {
    const start = this.head;
    if (!start || endProbe.firstId !== start.firstId || endProbe.total !== start.total) return false;
    return pageTotals.every((total) => total === start.total);
  }

  /** Yields the verdict's items up to `since` or `maxItems`; true when the run ends with them. */
  private *emit(verdict: PageVerdict<T>): Generator<T, boolean> {
    this.cursor = verdict.cursor;
    let stop = verdict.done;
    for (const item of verdict.fresh) {
      if (this.savedDuringRun(item)) continue;
      if (this.isTooOld(item)) {
        stop = true;
        break;
      }
      yield item;
      this.progress.itemsYielded += 1;
      this.fetcher.throwIfAborted();
      if (this.progress.itemsYielded >= this.maxItems) {
        stop = true;
        break;
      }
    }
    this.options.onProgress?.({ ...this.progress });
    return stop;
  }

  private judge(page: number, result: PageResult<T> | undefined): PageVerdict<T> {
    const snapshot = { page, items: result?.items ?? [], total: result?.meta.total ?? 0 };
    return judgePage(this.cursor, snapshot, this.pageSize, this.seen, (item) => this.idOf(item));
  }

  private fetchData(request: Promise<PageResult<T>>): Promise<PageResult<T>> {
    const counted = request.then((result) => {
      this.progress.pagesFetched += 1;
      this.progress.total = result.meta.total;
      this.progress.totalPages = result.meta.totalPages;
      return result;
    });
    counted.catch(() => {}); // a page of a discarded round may reject unobserved
    return counted;
  }

  private async probe(): Promise<Head> {
    return this.headOf(await this.fetcher.fetch(1, PROBE_LIMIT));
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

  /** Items without a readable timestamp are kept: we cannot show they are older. */
  private isTooOld(item: T): boolean {
    const ms = this.timeOf(item);
    return this.options.since !== undefined && ms !== undefined && ms <= this.options.since.getTime();
  }

  /**
   * Saved after the run began: not owed, and once the cursor has fallen back after removals such an
   * item could turn up behind older ones already written. Leaving them all out keeps the output in
   * order and makes an export the list as it was at the start, minus what was deleted meanwhile.
   * Without a timeField this cannot be told, and such items may be written, possibly out of order.
   */
  private savedDuringRun(item: T): boolean {
    const ms = this.timeOf(item);
    return this.runStartMs !== undefined && ms !== undefined && ms > this.runStartMs;
  }

  private timeOf(item: T): number | undefined {
    const timeField = this.options.timeField;
    const value = timeField === undefined ? undefined : item[timeField];
    const ms =
      typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : Number.NaN;
    return Number.isNaN(ms) ? undefined : ms;
  }
}

/** A server that caps the page size below what we asked says so in meta.limit: page by its size. */
function pageSizeOf(reported: unknown, requested: number): number {
  return typeof reported === 'number' && Number.isInteger(reported) && reported > 0 && reported < requested
    ? reported
    : requested;
}
