// The account's past searches: a few generated ones from before the server started, then one per
// successful search. Kept oldest-first internally so recording a search is a push.

import { generateHistoryEntry } from './data.js';
import { Stream, streamFor } from './random.js';
import type { HistoryEntry } from './types.js';

const HOUR = 3_600_000;

export class HistoryStore {
  private readonly entries: HistoryEntry[] = [];
  private recorded = 0;

  /** Initial entries end two hours before `anchorMs`, about five hours apart. */
  constructor(
    private readonly seed: number,
    initialCount: number,
    anchorMs: number,
    hostile: boolean,
  ) {
    for (let index = initialCount - 1; index >= 0; index--) {
      const jitter = streamFor(seed, Stream.history, index, 0x7157).int(HOUR);
      const createdAtMs = anchorMs - 2 * HOUR - index * 5 * HOUR - jitter;
      this.entries.push(generateHistoryEntry(seed, index, createdAtMs, hostile));
    }
  }

  get total(): number {
    return this.entries.length;
  }

  record(query: string, location: string, resultsCount: number, nowMs: number): void {
    const id = streamFor(this.seed, Stream.newHistory, this.recorded++).uuid();
    const created_at = new Date(nowMs).toISOString();
    this.entries.push({ id, query, location, results_count: resultsCount, created_at });
  }

  /** Entries at positions offset..offset+count-1, counted from the newest. */
  slice(offset: number, count: number): HistoryEntry[] {
    const page: HistoryEntry[] = [];
    const newest = this.entries.length - 1;
    for (let i = offset; i < offset + count && i <= newest; i++) page.push(this.entries[newest - i]!);
    return page;
  }
}
