// What the sandbox remembers between requests: the saved leads, the search history and the search cache.

// Saved leads are runs of serial numbers, only (serial, time) kept, so 200,000 leads cost as little as 300.
// Newer serials are newer leads; removal trims the newest.

import { generateHistoryEntry, normalizeText, type SearchCriteria } from './data.js';
import { Stream, streamFor } from './random.js';
import type { HistoryEntry, SearchResult } from './types.js';

const MINUTE = 60_000;
const YEAR = 365 * 24 * 60 * MINUTE;

interface SerialRun {
  /** First serial of the run (oldest). */
  start: number;
  /** One past the last serial (the newest is end - 1). */
  end: number;
  /** The run's newest serial when it was saved: fixed, so removing leads does not move timestamps. */
  topSerial: number;
  /** saved_at of the lead at topSerial. */
  newestAtMs: number;
  /** Gap between neighbouring leads of the run. */
  stepMs: number;
  /** Adds realistic irregularity without breaking the order: kept below stepMs. */
  jitter: (serial: number) => number;
}

interface SavedLeadRef {
  serial: number;
  savedAtMs: number;
  /** Place among the leads saved with it, newest first: fixed, so removing leads changes no lead. */
  rank: number;
}

export class LeadStore {
  private readonly runs: SerialRun[] = [];
  private nextSerial = 0;
  private newestEverMs: number;
  /** Serials deleted in place (deleteAt), listed again by restore(). */
  private readonly hidden = new Set<number>();
  /** Fields changed by changeAt, by serial. */
  readonly changes = new Map<number, Record<string, unknown>>();

  /** Initial leads end a minute before `anchorMs`, spaced up to 45 minutes apart and within a year. */
  constructor(initialCount: number, anchorMs: number, jitterSource: (serial: number) => number) {
    this.newestEverMs = anchorMs - MINUTE;
    if (initialCount <= 0) return;
    const stepMs = Math.max(1_000, Math.min(45 * MINUTE, Math.floor(YEAR / initialCount)));
    this.push(initialCount, this.newestEverMs, stepMs, (serial) =>
      Math.floor(jitterSource(serial) * stepMs * 0.5),
    );
  }

  private push(n: number, newestAtMs: number, stepMs: number, jitter: (serial: number) => number): void {
    const start = this.nextSerial;
    this.runs.push({ start, end: start + n, topSerial: start + n - 1, newestAtMs, stepMs, jitter });
    this.nextSerial += n;
  }

  get total(): number {
    let total = 0;
    for (const run of this.runs) total += run.end - run.start;
    return total - this.hiddenPositions().length;
  }

  /** Deletes the leads now at these positions (0 = the newest), leaving the others where they are. */
  deleteAt(positions: readonly number[]): SavedLeadRef[] {
    const refs = positions.flatMap((position) => this.slice(position, 1));
    for (const ref of refs) this.hidden.add(ref.serial);
    return refs;
  }

  /** Lists every lead deleteAt removed again, in its old place. */
  restore(): void {
    this.hidden.clear();
  }

  /** Where each deleted serial would stand among all leads, ascending. */
  private hiddenPositions(): number[] {
    const positions: number[] = [];
    for (const serial of this.hidden) {
      let before = 0;
      for (let r = this.runs.length - 1; r >= 0; r--) {
        const run = this.runs[r]!;
        if (serial >= run.start && serial < run.end) {
          positions.push(before + run.end - 1 - serial);
          break;
        }
        before += run.end - run.start;
      }
    }
    return positions.sort((a, b) => a - b);
  }

  /** Saves n new leads at `nowMs` (kept strictly newer than any lead before them). */
  add(count: number, nowMs: number): void {
    if (!(count > 0)) return;
    const n = Math.floor(count);
    this.newestEverMs = Math.max(nowMs, this.newestEverMs + n);
    this.push(n, this.newestEverMs, 1, () => 0);
  }

  /** Removes the n newest leads. */
  remove(count: number): void {
    let left = Math.floor(count);
    while (left > 0 && this.runs.length > 0) {
      const run = this.runs[this.runs.length - 1]!;
      const size = run.end - run.start;
      if (size <= left) {
        this.runs.pop();
        left -= size;
      } else {
        run.end -= left;
        left = 0;
      }
    }
  }

  /** Leads at positions offset..offset+count-1, counted from the newest. */
  slice(offset: number, count: number): SavedLeadRef[] {
    if (this.hidden.size === 0) return this.sliceAll(offset, count);
    const hidden = this.hiddenPositions();
    let from = offset;
    for (const position of hidden) if (position <= from) from += 1;
    const refs = this.sliceAll(from, count + hidden.length);
    return refs.filter((ref) => !this.hidden.has(ref.serial)).slice(0, count);
  }

  private sliceAll(offset: number, count: number): SavedLeadRef[] {
    const refs: SavedLeadRef[] = [];
    let skip = offset;
    for (let r = this.runs.length - 1; r >= 0 && refs.length < count; r--) {
      const run = this.runs[r]!;
      const size = run.end - run.start;
      if (skip >= size) {
        skip -= size;
        continue;
      }
      for (let i = skip; i < size && refs.length < count; i++) {
        const serial = run.end - 1 - i;
        const age = (run.topSerial - serial) * run.stepMs + run.jitter(serial);
        refs.push({ serial, savedAtMs: run.newestAtMs - age, rank: run.topSerial - serial });
      }
      skip = 0;
    }
    return refs;
  }
}

// Search history: a few generated entries from before the start, then one per successful search; kept
// oldest-first so recording a search is a push.
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
    const end = Math.max(0, this.entries.length - offset);
    return this.entries.slice(Math.max(0, end - count), end).reverse();
  }
}

// The same normalized query, location and effective radius within 24 hours of the live search that filled
// the cache is answered from it and spends no live search.
export const SEARCH_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** Oldest entries are dropped beyond this, so a long-running sandbox cannot grow without bound. */
const MAX_ENTRIES = 10_000;

interface CacheEntry {
  results: SearchResult[];
  expiresAtMs: number;
}

function searchCacheKey(criteria: SearchCriteria): string {
  return `${normalizeText(criteria.query)}\u0000${normalizeText(criteria.location)}\u0000${criteria.radius}`;
}

export class SearchCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly now: () => number) {}

  get(criteria: SearchCriteria): SearchResult[] | undefined {
    const key = searchCacheKey(criteria);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAtMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.results;
  }

  set(criteria: SearchCriteria, results: SearchResult[]): void {
    const key = searchCacheKey(criteria);
    this.entries.delete(key);
    this.entries.set(key, { results, expiresAtMs: this.now() + SEARCH_CACHE_TTL_MS });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
