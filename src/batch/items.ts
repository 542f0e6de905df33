// What a batch writes for each result: the search it came from first, then the result's own fields.
import { ProtocolError } from '../api/errors.js';
import { identityText } from '../api/exact-number.js';
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
 * --unique: the first result per place_id across the batch (`seen` carries over, from a stopped run
 * too). A result without a place_id stops the run (exit 7) rather than guess.
 */
export function keepFirstPerPlace(results: readonly Item[], seen: Set<string>, row: SearchRow): Item[] {
  const idField = RESOURCES.results.idField;
  const kept: Item[] = [];
  for (const result of results) {
    const key = identityText(result[idField]);
    if (key === undefined) {
      throw new ProtocolError(
        `server answered line ${row.line}'s search with a result without a ${idField}; --unique needs every result's ${idField} to keep each place once`,
        `without --unique such results are written as sent`,
      );
    }
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(result);
  }
  return kept;
}
