// An item as a row: the spec's fields as column values, and the whole item as JSON text.
// Exact values, by one rule: a number JavaScript read exactly (it prints back to the digits sent) is
// stored as an SQLite number (INTEGER when whole, else REAL); any other number (an id beyond 2^53,
// `4.50`, `1e3`) as its exact digits, TEXT. Strings as sent; objects and arrays as JSON text; missing
// and null as NULL. The `json` column keeps the item as sent, whatever the columns made of it.
import { asSent, ExactNumber, identityText } from '../api/exact-number.js';
import { jsonText } from '../output/json-text.js';
import type { SqlValue } from './engine.js';
import { COLUMNS, type StoredTable } from './schema.js';

type Item = Record<string, unknown>;

export function columnValue(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // node:sqlite binds a JS number as REAL (12 would read back as 12.0): whole ones go as INTEGER.
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? BigInt(value) : value;
  }
  if (value instanceof ExactNumber) return value.digits;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return jsonText(value);
}

/** The row's values in column order (the identity as text first), then the item's JSON. */
export function rowValues(
  table: StoredTable,
  typed: Item,
): { key: string; values: SqlValue[]; json: string } {
  // The item as the server sent it (exact digits, its own keys), not the library's typed reading.
  const item = asSent(typed);
  const [idField, ...rest] = COLUMNS[table];
  const key = identityText(item[idField]) ?? '';
  return { key, values: [key, ...rest.map((field) => columnValue(item[field]))], json: jsonText(item) };
}
