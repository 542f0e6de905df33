// The database's tables, made to be read with `sqlite3` or Datasette without docs: one table per
// resource with the spec's columns in the spec's order, then when leadctl first and last received the
// row, then `json`: the item exactly as the server sent it (unknown fields, key order, digits).
// STRICT tables; numeric columns are ANY so that a value is stored as sent: an SQLite number where
// JavaScript read the number exactly, else its exact digits as TEXT (columnValue below).
import { asSent, ExactNumber, identityText } from '../api/exact-number.js';
import { jsonText } from '../output/json-text.js';
import type { SqlValue } from './engine.js';

/** Bumped when the tables change; a database from a newer leadctl is refused. */
export const SCHEMA_VERSION = 1;

const SEEN = `first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  json TEXT NOT NULL`;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS leads (
  id TEXT PRIMARY KEY,
  name TEXT,
  address TEXT,
  phone TEXT,
  website TEXT,
  rating ANY,
  review_count ANY,
  category TEXT,
  saved_at TEXT,
  ${SEEN}
) STRICT;
CREATE INDEX IF NOT EXISTS leads_saved_at ON leads (saved_at);

CREATE TABLE IF NOT EXISTS history (
  id TEXT PRIMARY KEY,
  query TEXT,
  location TEXT,
  results_count ANY,
  created_at TEXT,
  ${SEEN}
) STRICT;

CREATE TABLE IF NOT EXISTS search_results (
  place_id TEXT PRIMARY KEY,
  name TEXT,
  address TEXT,
  phone TEXT,
  website TEXT,
  rating ANY,
  review_count ANY,
  category TEXT,
  lat ANY,
  lng ANY,
  ${SEEN}
) STRICT;

-- One row per search sent with --db: what was asked, when, and what the server echoed.
CREATE TABLE IF NOT EXISTS searches (
  id INTEGER PRIMARY KEY,
  query TEXT NOT NULL,
  location TEXT NOT NULL,
  radius INTEGER,
  searched_at TEXT NOT NULL,
  results_count INTEGER NOT NULL,
  server_query TEXT,
  server_location TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS searches_asked ON searches (query, location, searched_at);

-- Which places each search returned, in the order it returned them.
CREATE TABLE IF NOT EXISTS search_sightings (
  search_id INTEGER NOT NULL REFERENCES searches (id),
  position INTEGER NOT NULL,
  place_id TEXT NOT NULL,
  PRIMARY KEY (search_id, position)
) STRICT;
CREATE INDEX IF NOT EXISTS search_sightings_place ON search_sightings (place_id);

-- One row per committed sync: a failed or interrupted run leaves none (and no other change).
CREATE TABLE IF NOT EXISTS sync_runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  requests INTEGER NOT NULL,
  leads_added INTEGER NOT NULL,
  leads_changed INTEGER NOT NULL,
  leads_total INTEGER,
  history_added INTEGER NOT NULL,
  history_changed INTEGER NOT NULL,
  history_total INTEGER,
  leadctl_version TEXT NOT NULL
) STRICT;

-- Where each list stood at the last committed sync (the ids at its newest end, as --checkpoint
-- keeps them), and the account it belongs to: one account per database.
CREATE TABLE IF NOT EXISTS sync_state (
  resource TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  head TEXT NOT NULL,
  total INTEGER NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
`;

/** The spec's fields of each stored resource, in the spec's order: the tables' data columns. */
export const COLUMNS = {
  leads: ['id', 'name', 'address', 'phone', 'website', 'rating', 'review_count', 'category', 'saved_at'],
  history: ['id', 'query', 'location', 'results_count', 'created_at'],
  search_results: [
    'place_id',
    'name',
    'address',
    'phone',
    'website',
    'rating',
    'review_count',
    'category',
    'lat',
    'lng',
  ],
} as const;

export type StoredTable = keyof typeof COLUMNS;

// An item as a row: the spec's fields as column values, and the whole item as JSON text.
// Exact values, by one rule: a number JavaScript read exactly (it prints back to the digits sent) is
// stored as an SQLite number (INTEGER when whole, else REAL); any other number (an id beyond 2^53,
// `4.50`, `1e3`) as its exact digits, TEXT. Strings as sent; objects and arrays as JSON text; missing
// and null as NULL. The `json` column keeps the item as sent, whatever the columns made of it.
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
