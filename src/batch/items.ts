// What a batch writes for each result: the search it came from first, then the result's own fields.
import { RESOURCES } from '../resources.js';
import type { SearchRow } from './validate.js';

type Item = Record<string, unknown>;

export const BATCH_RESOURCE = {
  fields: ['search_query', 'search_location', ...RESOURCES.results.fields],
  tableFields: ['search_query', 'search_location', 'name', 'phone', 'website', 'rating', 'category'],
} as const;

/** The row's own text (not the server's echo), so results can be joined back to the input. */
export function labelResult(row: SearchRow, result: Item): Item {
  // Ours win over same-named keys a server might send, and stay first in the key order.
  return { ...ownLabels(row), ...result, ...ownLabels(row) };
}

function ownLabels(row: SearchRow): Item {
  return { search_query: row.query, search_location: row.location };
}

/**
 * --unique: the first result per place_id across the batch; later ones are dropped. `seen` carries
 * over between searches (and from a stopped run). Results without a place_id are always kept.
 */
export function keepFirstPerPlace(results: readonly Item[], seen: Set<string>): Item[] {
  const kept: Item[] = [];
  for (const result of results) {
    const id = result[RESOURCES.results.idField];
    if (typeof id === 'string' || typeof id === 'number') {
      const key = String(id);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(result);
  }
  return kept;
}
