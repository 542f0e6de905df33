// Which items paginate() has already written, in memory that stays flat however long the list is.
//
// Written old items are always a prefix of the old items in list order (everything up to the last one
// written, minus removals): the run writes them in order. So to tell "written" from "owed" we need not
// remember every id. With a timeField and a list ordered newest first, anything strictly newer than an
// item the run has already moved past was written (or saved during the run, which is not owed either).
//
// We keep the ids of the most recent writes (at least `capacity` of them) and forget older ones, but
// only those strictly newer than the last item written: then
//   - every forgotten item has a time >= `forgottenFloorMs`, so an item that new is reported written;
//   - every owed item comes after the last written one in the list, so its time is <= that one's, which
//     is < every forgotten time: an owed item is never mistaken for a written one;
//   - items that share a timestamp with the last write are never forgotten, so ties are decided by id.
// Items without a readable time (or runs without a timeField) are never forgotten: then this is a
// plain Set of every id, exactly as before. Items without an id cannot be recognised and are not kept.

export class YieldedItems<T> {
  private readonly ids = new Set<string>();
  /** Recent writes, oldest first, from `head` on. */
  private readonly recent: { id: string; ms: number | undefined }[] = [];
  private head = 0;
  private forgottenFloorMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly capacity: number,
    private readonly idOf: (item: T) => string | undefined,
    private readonly timeOf: (item: T) => number | undefined,
  ) {}

  /** Ids held right now (for tests and diagnostics). */
  get size(): number {
    return this.ids.size;
  }

  has(item: T): boolean {
    const id = this.idOf(item);
    if (id === undefined) return false;
    if (this.ids.has(id)) return true;
    const ms = this.timeOf(item);
    return ms !== undefined && ms >= this.forgottenFloorMs;
  }

  /** Records an item just written; `ms` is its time, when the caller has read it already. */
  add(item: T, ms: number | undefined = this.timeOf(item)): void {
    const id = this.idOf(item);
    if (id === undefined || this.ids.has(id)) return;
    this.ids.add(id);
    this.recent.push({ id, ms });
    this.forgetOlderThan(ms);
  }

  private forgetOlderThan(lastMs: number | undefined): void {
    while (this.recent.length - this.head > this.capacity) {
      const oldest = this.recent[this.head];
      if (!oldest || oldest.ms === undefined || lastMs === undefined || !(oldest.ms > lastMs)) break;
      this.ids.delete(oldest.id);
      this.forgottenFloorMs = Math.min(this.forgottenFloorMs, oldest.ms);
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.recent.length) {
      this.recent.splice(0, this.head);
      this.head = 0;
    }
  }
}
