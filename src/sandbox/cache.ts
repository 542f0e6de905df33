// The search cache: a search with the same normalized query, normalized location and effective radius
// within 24 hours of the live search that filled it is answered from here and spends no live search.

import { normalizeText, type SearchCriteria } from './data.js';
import type { SearchResult } from './types.js';

export const SEARCH_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** Oldest entries are dropped beyond this, so a long-running sandbox cannot grow without bound. */
const MAX_ENTRIES = 10_000;

interface CacheEntry {
  results: SearchResult[];
  expiresAtMs: number;
}

export function searchCacheKey(criteria: SearchCriteria): string {
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
