// Saved leads as serial runs, history, quota counters and their resets, and the search cache.
import { describe, expect, it } from 'vitest';
import { firstOfNextUtcMonth, nextUtcMidnight, PeriodCounter } from '../../src/sandbox/state.js';
import { HistoryStore, LeadStore, SEARCH_CACHE_TTL_MS, SearchCache } from '../../src/sandbox/stores.js';

const ANCHOR = Date.parse('2024-06-15T12:00:00Z');
const noJitter = () => 0.5;

describe('LeadStore', () => {
  it('lists serials newest first with strictly decreasing times', () => {
    const store = new LeadStore(10, ANCHOR, noJitter);
    const refs = store.slice(0, 100);
    expect(refs.map((ref) => ref.serial)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (let i = 1; i < refs.length; i++) expect(refs[i]!.savedAtMs).toBeLessThan(refs[i - 1]!.savedAtMs);
    expect(refs[0]!.savedAtMs).toBeLessThan(ANCHOR);
    expect(store.slice(8, 5).map((ref) => ref.serial)).toEqual([1, 0]);
  });

  it('keeps a million leads within a year without holding them', () => {
    const store = new LeadStore(1_000_000, ANCHOR, noJitter);
    expect(store.total).toBe(1_000_000);
    const [oldest] = store.slice(999_999, 1);
    expect(ANCHOR - oldest!.savedAtMs).toBeLessThanOrEqual(366 * 86_400_000);
  });

  it('adds newer leads with fresh serials, and removing them does not move other timestamps', () => {
    const store = new LeadStore(5, ANCHOR, noJitter);
    const before = store.slice(0, 5);
    store.add(3, ANCHOR - 10 * 86_400_000);
    const after = store.slice(0, 8);
    expect(after.map((ref) => ref.serial)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    expect(after[2]!.savedAtMs).toBeGreaterThan(before[0]!.savedAtMs);
    store.remove(4);
    expect(store.slice(0, 10)).toEqual(before.slice(1));
    store.add(1, ANCHOR);
    expect(store.slice(0, 1)[0]!.serial).toBe(8);
  });
});

describe('HistoryStore', () => {
  it('puts recorded searches first', () => {
    const history = new HistoryStore(1, 3, ANCHOR, false);
    history.record('plumber', 'Austin', 12, ANCHOR);
    expect(history.total).toBe(4);
    expect(history.slice(0, 1)[0]).toMatchObject({ query: 'plumber', location: 'Austin', results_count: 12 });
    expect(history.slice(3, 5)).toHaveLength(1);
  });
});

describe('reset times', () => {
  it('finds the next UTC midnight and the first of the next UTC month', () => {
    expect(nextUtcMidnight(Date.parse('2024-02-29T23:59:59.999Z'))).toBe(Date.parse('2024-03-01T00:00:00Z'));
    expect(nextUtcMidnight(Date.parse('2024-03-01T00:00:00Z'))).toBe(Date.parse('2024-03-02T00:00:00Z'));
    expect(firstOfNextUtcMonth(Date.parse('2024-12-31T23:00:00Z'))).toBe(Date.parse('2025-01-01T00:00:00Z'));
    expect(firstOfNextUtcMonth(Date.parse('2024-01-01T00:00:00Z'))).toBe(Date.parse('2024-02-01T00:00:00Z'));
  });

  it('refuses past the limit and starts afresh in the next period', () => {
    let now = Date.parse('2024-01-31T23:00:00Z');
    const requests = new PeriodCounter(nextUtcMidnight, () => now);
    const liveSearches = new PeriodCounter(firstOfNextUtcMonth, () => now);
    expect(requests.spend('a', 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(requests.spend('a', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(requests.spend('a', 2)).toMatchObject({
      allowed: false,
      resetAtMs: Date.parse('2024-02-01T00:00:00Z'),
    });
    expect(liveSearches.spend('a', 1).allowed).toBe(true);
    expect(liveSearches.spend('a', 1).allowed).toBe(false);
    now = Date.parse('2024-02-01T00:00:00Z');
    expect(requests.spend('a', 2).allowed).toBe(true);
    expect(liveSearches.spend('a', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });
});

describe('SearchCache', () => {
  it('matches on normalized query and location and the effective radius, for 24 hours', () => {
    let now = 0;
    const cache = new SearchCache(() => now);
    cache.set({ query: 'Plumber', location: 'Austin, TX', radius: 10 }, []);
    expect(cache.get({ query: ' plumber ', location: 'austin,tx', radius: 10 })).toEqual([]);
    expect(cache.get({ query: 'plumber', location: 'Austin, TX', radius: 11 })).toBeUndefined();
    expect(cache.get({ query: 'plumbers', location: 'Austin, TX', radius: 10 })).toBeUndefined();
    now = SEARCH_CACHE_TTL_MS;
    expect(cache.get({ query: 'plumber', location: 'Austin, TX', radius: 10 })).toBeUndefined();
  });
});
