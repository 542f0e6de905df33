// The database face: one interface over both engines, every statement written once. Opening a store brings
// its tables to this leadctl's schema (schema.ts) or refuses a newer one.
import { UsageError } from '../api/errors.js';
import { parseJsonLossless } from '../api/exact-json-parser.js';
import { identityText } from '../api/exact-number.js';
import type { ListResource } from '../api/paging/index.js';
import type { DatabaseTarget } from './paths.js';
import { openPostgres } from './postgres.js';
import {
  migrate,
  rowValues,
  SCHEMA_VERSION,
  type SqlEngine,
  type SqlValue,
  type StoredTable,
  storedColumns,
} from './schema.js';
import { openSqlite } from './sqlite.js';

type Item = Record<string, unknown>;

/** Where a list stood after the last committed page (sync_state). */
export interface ListState {
  /** The ids at the newest end, newest first (the --checkpoint rule). */
  head: string[];
  /** The server's total when the head was read. */
  total: number;
  /** Live rows the mirror holds. */
  rows: number;
  /** When a full pass last ended; undefined while the first sync is unfinished. */
  fullPassAt: string | undefined;
}

export interface UpsertCounts {
  added: number;
  changed: number;
  /** Rows marked deleted that the server lists again. */
  revived: number;
}

/** A search as it was asked (not as the server echoed it): the key of --cache. */
export interface SearchAsk {
  query: string;
  location: string;
  radius?: number | undefined;
}

export interface RunRecord {
  startedAt: string;
  outcome: string;
  requests: number;
  counts: Record<ListResource, UpsertCounts & { deleted: number; total: number | undefined }>;
  version: string;
}

export interface OpenOptions {
  /** What needs the database, for the message on a Node without SQLite: "sync", "--new-only". */
  feature: string;
  /** The account a leadctl 1 file's rows are given when its sync_state names none. */
  account: string;
  /** sync: SQLite's quick_check before anything is written. */
  check?: boolean;
}

export async function openStore(
  target: DatabaseTarget,
  env: NodeJS.ProcessEnv,
  options: OpenOptions,
): Promise<Store> {
  const db =
    target.kind === 'postgres'
      ? await openPostgres(target.url, env)
      : await openSqlite({ ...target, feature: options.feature, check: options.check ?? false });
  try {
    const version = await inTransaction(db, async () => {
      // Two runs opening an old database at once: one migrates, the other waits and finds it done.
      if (db.kind === 'postgres')
        await db.all("SELECT pg_advisory_xact_lock(hashtextextended('leadctl schema', 0))");
      return migrate(db, options.account);
    });
    if (version > SCHEMA_VERSION) {
      throw new UsageError(
        `${db.label} was written by a newer leadctl (schema ${version}; this one knows ${SCHEMA_VERSION})`,
        'upgrade leadctl (npm install -g leadctl), or name another database',
      );
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  return storeOver(db);
}

export type Store = ReturnType<typeof storeOver>;

async function inTransaction<T>(db: SqlEngine, work: () => Promise<T>): Promise<T> {
  // IMMEDIATE: SQLite's write lock is taken at once, so a wait happens here and never mid-way.
  await db.exec(db.kind === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN');
  try {
    const result = await work();
    await db.exec('COMMIT');
    return result;
  } catch (error) {
    await db.exec('ROLLBACK').catch(() => {});
    throw error;
  }
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
/** Column values compared as text: 4.5 read back from SQLite and '4.5' from PostgreSQL are one value. */
const asText = (value: SqlValue | undefined) =>
  value === null || value === undefined ? null : String(value);

function storeOver(db: SqlEngine) {
  const { all, run } = db;
  const liveRows = (list: ListResource) => `FROM ${list} WHERE account = ? AND deleted_at IS NULL`;
  const count = async (sql: string, params: SqlValue[]) => Number((await all(sql, params))[0]?.n);
  const store = {
    kind: db.kind,
    label: db.label,
    /** `work` in one transaction: committed when it returns, rolled back when it throws. */
    transaction: <T>(work: () => Promise<T>) => inTransaction(db, work),
    /** One sync per account: resolves to the release; exit 2 naming the holder when held. */
    lockAccount: db.lockAccount,
    readState: async (account: string, list: ListResource): Promise<ListState | undefined> => {
      const [row] = await all(
        'SELECT head, total, rows, full_pass_at FROM sync_state WHERE account = ? AND resource = ?',
        [account, list],
      );
      if (row === undefined) return undefined;
      let head: unknown;
      try {
        head = JSON.parse(String(row.head));
      } catch {}
      if (!Array.isArray(head) || !head.every((id) => typeof id === 'string')) {
        throw new UsageError(
          `${db.label}: the sync_state row of ${list} (account ${account}) was changed by hand and cannot be read`,
          `run: leadctl sync --full (it reads every ${list === 'leads' ? 'lead' : 'history entry'} again)`,
        );
      }
      return {
        head,
        total: Number(row.total),
        rows: Number(row.rows),
        fullPassAt: row.full_pass_at === null ? undefined : String(row.full_pass_at),
      };
    },
    writeState: async (account: string, list: ListResource, state: ListState) => {
      await run(
        `INSERT INTO sync_state (account, resource, head, total, rows, full_pass_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account, resource) DO UPDATE SET head = excluded.head, total = excluded.total,
           rows = excluded.rows, full_pass_at = excluded.full_pass_at, updated_at = excluded.updated_at`,
        [
          account,
          list,
          JSON.stringify(state.head),
          BigInt(state.total),
          BigInt(state.rows),
          state.fullPassAt ?? null,
          new Date().toISOString(),
        ],
      );
    },
    /**
     * By identity; `ranks` places a list's rows (undefined: a row keeps its place). A changed rating or
     * review count adds a lead_changes row. `fresh`: none of these is stored, so existing rows are not read.
     */
    upsert: async (
      table: StoredTable,
      account: string,
      items: readonly Item[],
      seenAt: string,
      ranks?: (index: number) => number,
      fresh = false,
    ) => {
      const counts: UpsertCounts = { added: 0, changed: 0, revived: 0 };
      const listed = table !== 'search_results';
      const key = listed ? 'id' : 'place_id';
      // One row per identity: a page that lists an item twice keeps the first.
      const rows = new Map<string, ReturnType<typeof rowValues> & { index: number }>();
      items.forEach((item, index) => {
        const row = rowValues(table, item, db.kind);
        if (!rows.has(row.key)) rows.set(row.key, { ...row, index });
      });
      if (rows.size === 0) return counts;
      const keys = [...rows.keys()];
      const extra = `${listed ? ', deleted_at, list_rank' : ''}${table === 'leads' ? ', rating, review_count' : ''}`;
      const found = fresh
        ? []
        : await all(
            `SELECT ${key} AS k, json${extra} FROM ${table} WHERE account = ? AND ${key} IN (${marks(keys.length)})`,
            [account, ...keys],
          );
      const before = new Map(found.map((row) => [row.k, row]));
      const columns = storedColumns(table);
      const params: SqlValue[] = [];
      const changes: SqlValue[] = [];
      for (const [id, row] of rows) {
        const old = before.get(id);
        if (old === undefined) counts.added += 1;
        else if (old.json !== row.json) counts.changed += 1;
        if (old?.deleted_at) counts.revived += 1;
        params.push(account, ...row.values, seenAt, seenAt);
        if (listed) params.push(BigInt(ranks ? ranks(row.index) : Number(old?.list_rank)));
        params.push(row.json);
        if (table === 'leads' && old) {
          const [rating, reviews] = [row.values[5] ?? null, row.values[6] ?? null];
          if (asText(old.rating) !== asText(rating) || asText(old.review_count) !== asText(reviews)) {
            changes.push(account, id, seenAt, old.rating ?? null, old.review_count ?? null, rating, reviews);
          }
        }
      }
      const names = [
        'account',
        ...columns,
        'first_seen_at',
        'last_seen_at',
        ...(listed ? ['list_rank'] : []),
        'json',
      ];
      const tuple = `(${marks(names.length)})`;
      const updated = [...columns.slice(1), 'last_seen_at', ...(listed ? ['list_rank'] : []), 'json'];
      // A known row keeps its first_seen_at: the update leaves it out.
      await run(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES ${Array.from({ length: rows.size }, () => tuple).join(', ')}
         ON CONFLICT (account, ${key}) DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}${listed ? ', deleted_at = NULL' : ''}`,
        params,
      );
      if (changes.length > 0) {
        await run(
          `INSERT INTO lead_changes (account, id, changed_at, rating_before, review_count_before, rating, review_count)
             VALUES ${Array.from({ length: changes.length / 7 }, () => `(${marks(7)})`).join(', ')}
           ON CONFLICT (account, id, changed_at) DO NOTHING`,
          changes,
        );
      }
      return counts;
    },
    liveCount: (account: string, list: ListResource) =>
      count(`SELECT count(*) AS n ${liveRows(list)}`, [account]),
    /** The highest and lowest rank of the list's rows (0 and 0 when it has none), and how many, deleted too. */
    rankRange: async (account: string, list: ListResource) => {
      const [row] = await all(
        `SELECT max(list_rank) AS high, min(list_rank) AS low, count(*) AS n FROM ${list} WHERE account = ?`,
        [account],
      );
      return { high: Number(row?.high ?? 0), low: Number(row?.low ?? 0), rows: Number(row?.n) };
    },
    /** Live rows ranked within [low, high], newest first. */
    liveRanked: async (account: string, list: ListResource, high: number, low: number) =>
      (
        await all(
          `SELECT id, list_rank ${liveRows(list)} AND list_rank <= ? AND list_rank >= ? ORDER BY list_rank DESC`,
          [account, BigInt(high), BigInt(low)],
        )
      ).map((row) => ({ id: String(row.id), rank: Number(row.list_rank) })),
    /** How many live rows rank above `rank`: a row's place in the mirror's list. */
    liveAbove: (account: string, list: ListResource, rank: number) =>
      count(`SELECT count(*) AS n ${liveRows(list)} AND list_rank > ?`, [account, BigInt(rank)]),
    ranksOf: async (account: string, list: ListResource, ids: readonly string[]) => {
      const rows =
        ids.length === 0
          ? []
          : await all(`SELECT id, list_rank ${liveRows(list)} AND id IN (${marks(ids.length)})`, [
              account,
              ...ids,
            ]);
      return new Map(rows.map((row) => [String(row.id), Number(row.list_rank)]));
    },
    /** Marks rows deleted: these ids, or every live row not seen since `unseenSince`. Returns how many. */
    markDeleted: async (
      account: string,
      list: ListResource,
      at: string,
      which: string[] | { unseenSince: string },
    ) => {
      if (!Array.isArray(which)) {
        return run(
          `UPDATE ${list} SET deleted_at = ? WHERE account = ? AND deleted_at IS NULL AND last_seen_at < ?`,
          [at, account, which.unseenSince],
        );
      }
      let marked = 0;
      for (let from = 0; from < which.length; from += 500) {
        const ids = which.slice(from, from + 500);
        marked += await run(
          `UPDATE ${list} SET deleted_at = ? WHERE account = ? AND deleted_at IS NULL AND id IN (${marks(ids.length)})`,
          [at, account, ...ids],
        );
      }
      return marked;
    },
    recordRun: async (account: string, record: RunRecord) => {
      const { leads, history } = record.counts;
      const total = (n: number | undefined) => (n === undefined ? null : BigInt(n));
      await run(
        `INSERT INTO sync_runs (account, started_at, finished_at, outcome, requests, leads_added, leads_changed,
           leads_deleted, leads_total, history_added, history_changed, history_deleted, history_total, leadctl_version)
         VALUES (${marks(14)})`,
        [
          account,
          record.startedAt,
          new Date().toISOString(),
          record.outcome,
          BigInt(record.requests),
          ...[leads, history].flatMap((c) => [
            BigInt(c.added),
            BigInt(c.changed),
            BigInt(c.deleted),
            total(c.total),
          ]),
          record.version,
        ],
      );
    },
    /** The place_ids among `keys` the database holds (for `account`, or any with undefined). */
    knownPlaces: async (account: string | undefined, keys: readonly string[]) => {
      if (keys.length === 0) return new Set<string>();
      const own = ofAccount(account, 'AND');
      const rows = await all(
        `SELECT DISTINCT place_id FROM search_results WHERE place_id IN (${marks(keys.length)})${own.sql}`,
        [...keys, ...own.params],
      );
      return new Set(rows.map((row) => String(row.place_id)));
    },
    cachedSearch: async (account: string | undefined, ask: SearchAsk, since: string) => {
      const own = ofAccount(account, 'AND');
      const [search] = await all(
        `SELECT id, account, searched_at FROM searches WHERE query = ? AND location = ? AND radius IS NOT DISTINCT FROM ?
           AND searched_at >= ?${own.sql} ORDER BY searched_at DESC, id DESC LIMIT 1`,
        [ask.query, ask.location, radiusValue(ask), since, ...own.params],
      );
      if (search === undefined) return undefined;
      const rows = await all(
        `SELECT r.json FROM search_sightings s JOIN search_results r ON r.account = s.account AND r.place_id = s.place_id
          WHERE s.search_id = ? ORDER BY s.position`,
        [search.id ?? null],
      );
      return {
        results: rows.map((row) => parseJsonLossless(String(row.json)) as Item),
        searchedAt: String(search.searched_at),
      };
    },
    recordSearch: (
      account: string,
      ask: SearchAsk,
      results: readonly Item[],
      echo: { query?: unknown; location?: unknown },
      at: string,
    ) =>
      inTransaction(db, async () => {
        await store.upsert('search_results', account, results, at);
        const text = (value: unknown) => (typeof value === 'string' ? value : null);
        const [search] = await all(
          `INSERT INTO searches (account, query, location, radius, searched_at, results_count, server_query, server_location)
             VALUES (${marks(8)}) RETURNING id`,
          [
            account,
            ask.query,
            ask.location,
            radiusValue(ask),
            at,
            BigInt(results.length),
            text(echo.query),
            text(echo.location),
          ],
        );
        if (results.length === 0) return;
        await run(
          `INSERT INTO search_sightings (account, search_id, position, place_id) VALUES ${results.map(() => `(${marks(4)})`).join(', ')}`,
          results.flatMap((item, position) => [
            account,
            search?.id ?? null,
            BigInt(position),
            identityText(item.place_id) ?? '',
          ]),
        );
      }),
    /** Saved leads and search results, for an --exclude list. */
    businesses: async (account: string | undefined) => {
      const { sql, params } = ofAccount(account, 'WHERE');
      return [
        ...(await all(`SELECT id, name, address, phone, website FROM leads${sql}`, params)),
        ...(await all(`SELECT place_id, name, address, phone, website FROM search_results${sql}`, params)),
      ];
    },
    close: () => db.close(),
  };
  return store;
}

const radiusValue = (ask: SearchAsk) => (ask.radius === undefined ? null : BigInt(ask.radius));
/** One account's rows, or every account's when it is undefined. */
const ofAccount = (account: string | undefined, joiner: 'AND' | 'WHERE') =>
  account === undefined ? { sql: '', params: [] } : { sql: ` ${joiner} account = ?`, params: [account] };
