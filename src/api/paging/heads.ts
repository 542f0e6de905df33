// Reads of the head of the list (README.md, invariants 3 and 4): only a head read proves an item new, and
// it counts the anchor's items deleted, which certifies the pipelined window (positions.ts).
import { deletedSinceAnchor, windowCertified } from './positions.js';
import type { Ledger } from './reconcile.js';
import type { Requests } from './requests.js';

/** The head read asks for the most the API gives: the further it sees, the more it can certify. */
const HEAD_LIMIT = 100;

/** The anchor: the first page's total and ids, the list every pipelined page must agree with. */
export interface Anchor {
  total: number;
  ids: Set<string>;
  /** The newest time on the first page (raised as re-saved items are proven old); +Infinity past page 1. */
  newestMs: number;
}

/** How the walk tells its items apart: by id, by whether that id was written, by time. */
export interface ItemLens<T> {
  idOf(item: T): string | undefined;
  isWritten(item: T): boolean;
  timeOf(item: T): number | undefined;
}

export interface Head {
  /** Items in front of the anchor's first page, all saved during the run; undefined when it is out of view. */
  saved?: number;
  total: number;
  /** Every id of the list, when the read saw the whole of it. */
  all?: Set<string>;
  /** No written item was in view: every one written so far was deleted, and position tells nothing. */
  noneWritten: boolean;
}

export class HeadReads<T> {
  /** Ids proven new (saved during the run): found by a head read in front of every written item. */
  readonly notOwed = new Set<string>();
  /** Ids proven gone: deleted since their page was read, so not owed either, but not new. */
  readonly gone = new Set<string>();
  /** The anchor's items found deleted by the latest head read that could count them (they stay so). */
  #deleted = 0;
  /** A head read lost sight of the anchor's first page: the list changed more than a read can count. */
  #uncountable = false;

  constructor(
    private readonly requests: Requests<T>,
    private readonly anchor: Anchor,
    private readonly ledger: Ledger,
    private readonly lens: ItemLens<T>,
  ) {}

  /** Reads the head; remembers the items it proves new, and what it shows of the list changing. */
  async read(): Promise<Head> {
    const { idOf, isWritten } = this.lens;
    const head = await this.requests.fetch(1, HEAD_LIMIT);
    const total = head.meta.total;
    const all = head.items.length >= total ? new Set(head.items.map((item) => idOf(item) ?? '')) : undefined;
    const saved = head.items.findIndex((item) => this.anchor.ids.has(idOf(item) ?? ''));
    this.ledger.endTotal = total;
    if (total !== this.anchor.total || saved !== 0) this.ledger.changed = true;
    // Unwritten items in front of any written one are new (README.md, invariant 4).
    const firstWritten = head.items.findIndex((item) => isWritten(item));
    for (const item of head.items.slice(0, Math.max(0, firstWritten))) this.notOwed.add(idOf(item) ?? '');
    // No written item left in view: position tells nothing, so a time newer than the first page's decides.
    const noneWritten = firstWritten < 0;
    if (noneWritten) {
      for (const item of head.items) if (this.newerThanAnchor(item)) this.notOwed.add(idOf(item) ?? '');
    }
    if (saved < 0) {
      this.#uncountable = true;
      return all ? { total, all, noneWritten } : { total, noneWritten };
    }
    this.#deleted = deletedSinceAnchor(this.anchor.total, saved, total);
    this.ledger.savedUnseen = Math.max(this.ledger.savedUnseen, saved);
    return all ? { saved, total, all, noneWritten } : { saved, total, noneWritten };
  }

  /** Certifies the pipelined window by how many of the anchor's items were deleted. */
  async certify(pageSize: number): Promise<{ certified: boolean; saved?: number; total: number }> {
    const { saved, total } = await this.read();
    if (saved === undefined) return { certified: false, total };
    const deleted = deletedSinceAnchor(this.anchor.total, saved, total);
    return { certified: windowCertified(deleted, pageSize), saved, total };
  }

  /** Whether enough deletions explain a page of `count` repeats past the cursor (README.md, invariant 5). */
  async changesExplainRepeats(count: number): Promise<boolean> {
    const explained = () => this.#uncountable || this.#deleted >= count;
    if (explained()) return true;
    await this.read();
    return explained();
  }

  /**
   * Whether an item newer than the first page was re-saved before the run (README.md, invariant 3); a
   * yes raises the bar, so it costs one head read per newer time, not one per page.
   */
  async oldDespiteTime(newest: number): Promise<boolean> {
    if (newest <= this.anchor.newestMs) return true;
    const head = await this.read();
    if (head.saved !== 0 || head.total !== this.anchor.total) return false;
    this.anchor.newestMs = newest;
    return true;
  }

  /** Leaves out the items a head read proves new; a hint alone never drops one (README.md, invariant 4). */
  async dropSavedDuringRun(fresh: T[]): Promise<T[]> {
    const { idOf, isWritten } = this.lens;
    const id = (item: T) => idOf(item) ?? '';
    const unplaced = (item: T) => !isWritten(item) && !this.notOwed.has(id(item)) && !this.gone.has(id(item));
    const lastWritten = fresh.findLastIndex((item) => isWritten(item));
    const hinted =
      fresh.slice(0, Math.max(0, lastWritten)).some(unplaced) ||
      (this.ledger.changed && fresh.some((item) => unplaced(item) && this.newerThanAnchor(item)));
    if (hinted) {
      const head = await this.read();
      // A head read that saw the whole list proves the hinted items it did not see gone: not owed.
      if (head.all)
        for (const item of fresh) if (unplaced(item) && !head.all.has(id(item))) this.gone.add(id(item));
      // With no written item in view, a time newer than the first page's decides, on this page too.
      if (head.noneWritten)
        for (const item of fresh)
          if (unplaced(item) && this.newerThanAnchor(item)) this.notOwed.add(id(item));
    }
    // On one page, whatever stands in front of a new item is new too; a gone item takes only itself.
    const lastNew = fresh.findLastIndex((item) => this.notOwed.has(id(item)));
    // Saved meanwhile: what is dropped in front of a new item, and a gone item that stood in front of a
    // written one (new as well, and deleted again); a gone item behind them may have been old.
    fresh.forEach((item, index) => {
      if (isWritten(item)) return;
      if (this.gone.has(id(item)) ? index < lastWritten : index <= lastNew) this.ledger.savedSkipped += 1;
    });
    return fresh.slice(lastNew + 1).filter((item) => !this.gone.has(id(item)));
  }

  newerThanAnchor(item: T): boolean {
    return (this.lens.timeOf(item) ?? Number.NEGATIVE_INFINITY) > this.anchor.newestMs;
  }
}
