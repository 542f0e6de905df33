// What `search` remembers and forgets with --db, --new-only, --cache and --exclude: answers from
// the database within --cache (no request), drops the businesses of the --exclude list and, with
// --new-only, the places the database has seen before; stores every result a sent search returned,
// by place_id, with the query, location and time (one transaction per search).
import { UsageError } from '../api/errors.js';
import { parseJsonLossless } from '../api/exact-json-parser.js';
import { identityText } from '../api/exact-number.js';
import type { MatchRule, SuppressionIndex } from '../text/business-match.js';
import { type OpenDatabase, openDatabase, sqliteReason } from './database.js';
import { loadExcludeList } from './exclude-list.js';
import { defaultDatabase } from './paths.js';
import { rowUpserter } from './upsert.js';

type Item = Record<string, unknown>;

export interface SearchMemoryFlags {
  db?: string;
  newOnly?: boolean;
  /** --cache, in milliseconds. */
  cache?: number;
  exclude?: string;
}

/** A search as it was asked (not as the server echoed it): the key of --cache. */
export interface SearchAsk {
  query: string;
  location: string;
  radius?: number | undefined;
}

export interface Selection {
  kept: Item[];
  /** Dropped by --exclude, by the rule that matched. */
  excluded: Partial<Record<MatchRule, number>>;
  /** Dropped by --new-only. */
  seenBefore: number;
}

export interface SearchMemory {
  /** The database, when one is used. */
  readonly file: string | undefined;
  /** The newest answer to the same search within --cache, from the database; undefined otherwise. */
  cached(ask: SearchAsk): { results: Item[]; searchedAt: string } | undefined;
  /** What is written of `results`. */
  select(results: readonly Item[]): Selection;
  /** Stores a sent search and its results (nothing without a database). */
  record(ask: SearchAsk, results: readonly Item[], echo?: { query?: unknown; location?: unknown }): void;
  close(): void;
}

export async function openSearchMemory(
  flags: SearchMemoryFlags,
  env: NodeJS.ProcessEnv,
  now: () => number = Date.now,
): Promise<SearchMemory> {
  const suppression = flags.exclude === undefined ? undefined : await loadExcludeList(flags.exclude);
  // --new-only and --cache need a database: --db, else the one `leadctl sync` keeps.
  const needsDatabase = flags.db !== undefined || Boolean(flags.newOnly) || flags.cache !== undefined;
  const file = needsDatabase ? (flags.db ?? defaultDatabase(env)) : undefined;
  const database =
    file === undefined
      ? undefined
      : await openDatabase({
          file,
          isDefault: flags.db === undefined,
          command: 'leadctl search',
          feature: flags.db !== undefined ? '--db' : flags.newOnly ? '--new-only' : '--cache',
        });
  return memoryOver(database, suppression, flags, now);
}

function memoryOver(
  database: OpenDatabase | undefined,
  suppression: SuppressionIndex | undefined,
  flags: SearchMemoryFlags,
  now: () => number,
): SearchMemory {
  const db = database?.db;
  const places = db ? rowUpserter(db, 'search_results') : undefined;
  return {
    file: database?.file,
    cached: (ask) => {
      if (!db || flags.cache === undefined) return undefined;
      const since = new Date(now() - flags.cache).toISOString();
      const search = db
        .prepare(
          `SELECT id, searched_at FROM searches WHERE query = ? AND location = ? AND radius IS ?
             AND searched_at >= ? ORDER BY searched_at DESC, id DESC LIMIT 1`,
        )
        .get(ask.query, ask.location, radiusValue(ask), since);
      if (search === undefined) return undefined;
      const rows = db
        .prepare(
          `SELECT r.json FROM search_sightings s JOIN search_results r ON r.place_id = s.place_id
             WHERE s.search_id = ? ORDER BY s.position`,
        )
        .all(search.id ?? null);
      return {
        results: rows.map((row) => parseJsonLossless(String(row.json)) as Item),
        searchedAt: String(search.searched_at),
      };
    },
    select: (results) => {
      const selection: Selection = { kept: [], excluded: {}, seenBefore: 0 };
      const known =
        flags.newOnly && places ? places.known(results.map((item) => placeKey(item))) : new Set<string>();
      for (const item of results) {
        const rule = suppression?.matches(item);
        if (rule !== undefined) selection.excluded[rule] = (selection.excluded[rule] ?? 0) + 1;
        else if (known.has(placeKey(item))) selection.seenBefore += 1;
        else selection.kept.push(item);
      }
      return selection;
    },
    record: (ask, results, echo = {}) => {
      if (!db || !places) return;
      const at = new Date(now()).toISOString();
      db.exec('BEGIN IMMEDIATE');
      try {
        places.upsert(results, at);
        const { lastInsertRowid } = db
          .prepare(
            `INSERT INTO searches (query, location, radius, searched_at, results_count, server_query, server_location)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            ask.query,
            ask.location,
            radiusValue(ask),
            at,
            BigInt(results.length),
            text(echo.query),
            text(echo.location),
          );
        const sighting = db.prepare(
          'INSERT INTO search_sightings (search_id, position, place_id) VALUES (?, ?, ?)',
        );
        results.forEach((item, position) => {
          sighting.run(BigInt(lastInsertRowid), BigInt(position), placeKey(item));
        });
        db.exec('COMMIT');
      } catch (error) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // BEGIN itself failed: nothing to roll back.
        }
        throw new UsageError(`cannot write database ${database?.file}: ${sqliteReason(error)}`);
      }
    },
    close: () => database?.close(),
  };
}

/** As the search_results table keys it (schema.ts): the identity as text. */
const placeKey = (item: Item) => identityText(item.place_id) ?? '';

const radiusValue = (ask: SearchAsk) => (ask.radius === undefined ? null : BigInt(ask.radius));
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** What a selection left out, for the footer: "; 3 written: 2 seen before, 1 excluded (phone)". */
export function selectionNote(selection: Selection, received: number): string {
  const excluded = Object.entries(selection.excluded);
  const excludedCount = excluded.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  if (selection.seenBefore === 0 && excludedCount === 0) return '';
  const parts: string[] = [];
  if (selection.seenBefore > 0) parts.push(`${selection.seenBefore} seen before`);
  if (excludedCount > 0) {
    const rules = excluded.map(([rule, n]) => `${rule.replace('_', ' + ')} ${n}`).join(', ');
    parts.push(`${excludedCount} excluded (${rules})`);
  }
  return `; ${selection.kept.length} of ${received} written: ${parts.join(', ')}`;
}
