// The SQLite engine: Node's built-in `node:sqlite` (22.13+), loaded only by runs that keep a database; a
// native driver builds from source for a minute where no prebuilt binary fits. Locks: docs/sync.md.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { LeadError, UsageError } from '../api/errors.js';
import { makePrivateDir } from '../config/paths.js';
import { backoffMs, LockedError, takeLock, WHOLE_RUN } from '../lock.js';
import { errorCode, reasonOf } from '../output/destination.js';
import { DATA_FOLDER } from './paths.js';
import type { SqlEngine, SqlRow, SqlValue } from './schema.js';

interface Statement {
  run(...params: SqlValue[]): { changes: number | bigint };
  all(...params: SqlValue[]): SqlRow[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseConstructor = new (path: string, options?: { readOnly?: boolean }) => Database;

// A variable, not a literal: the types of Node 20 (which the project builds against) have no
// node:sqlite, and the bundler leaves a built-in module alone either way.
const ENGINE_MODULE = 'node:sqlite';

export const ENGINE_NEEDED = "Node's built-in SQLite (node:sqlite), in Node 22.13 or newer";

let loaded: DatabaseConstructor | undefined;

/** The DatabaseSync class; UsageError (exit 2) on a Node without it, before any request is sent. */
export async function loadSqlite(feature: string): Promise<DatabaseConstructor> {
  if (loaded) return loaded;
  // Node 22's ExperimentalWarning for node:sqlite, and only it, is dropped (docs/sync.md).
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const first = rest[0];
    const type = typeof first === 'string' ? first : (first as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const engine = (await import(ENGINE_MODULE)) as { DatabaseSync?: DatabaseConstructor };
    if (typeof engine.DatabaseSync !== 'function') throw new Error('no DatabaseSync');
    loaded = engine.DatabaseSync;
    return loaded;
  } catch {
    throw new UsageError(
      `${feature} needs ${ENGINE_NEEDED}; this is Node ${process.versions.node}`,
      'install Node 22.13+ or 24 (https://nodejs.org) and run it again',
    );
  } finally {
    process.emitWarning = emitWarning;
  }
}

export interface SqliteOptions {
  file: string;
  /** leadctl's default place: its folder is made (0700) when missing. */
  isDefault: boolean;
  /** What needs the engine, for the message on a Node without it: "sync", "--new-only". */
  feature: string;
  /** Run SQLite's quick_check before anything is written (sync: a damaged file is refused). */
  check?: boolean;
  readOnly?: boolean;
}

export async function openSqlite(options: SqliteOptions): Promise<SqlEngine> {
  const DatabaseSync = await loadSqlite(options.feature);
  const { file } = options;
  if (options.isDefault) makePrivateDir(path.dirname(file), DATA_FOLDER);
  // Through a symlink, the file it points at is the one locked and written (as -o writes through).
  const real = realPathOr(file);
  const existed = fs.existsSync(real);
  let db: Database | undefined;
  try {
    db = new DatabaseSync(real, options.readOnly ? { readOnly: true } : {});
    if (!existed) fs.chmodSync(real, 0o600);
    // WAL: readers (sqlite3, Datasette) keep reading the last committed state during a sync. A short
    // busy timeout lets two accounts' syncs take turns; a writer that holds on longer is an error.
    db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA synchronous = NORMAL`);
    // A checkpoint per 40 MB of WAL, not 4 MB: a sync's page commits rewrite the same index pages
    // (random ids), which a checkpoint then copies once, with fewer fsyncs.
    if (!options.readOnly) await enterWal(db);
  } catch (error) {
    db?.close();
    throw sqliteError(error, file, 'open');
  }
  const statements = new Map<string, Statement>();
  const prepared = (sql: string) => {
    const statement = statements.get(sql) ?? db.prepare(sql);
    statements.set(sql, statement);
    return statement;
  };
  const guarded = async <T>(work: () => T) => {
    try {
      return work();
    } catch (error) {
      throw sqliteError(error, file);
    }
  };
  const engine: SqlEngine = {
    kind: 'sqlite',
    label: file,
    all: (sql, params = []) => guarded(() => prepared(sql).all(...params)),
    run: (sql, params = []) => guarded(() => Number(prepared(sql).run(...params).changes)),
    exec: (script) => guarded(() => db.exec(script)),
    lockAccount: async (account, command) => {
      const lock = await lockOneWriter(
        `${real}.${lockName(account)}.lock`,
        command,
        `account ${account} in ${file}`,
      );
      return async () => lock.release();
    },
    close: async () => db.close(),
  };
  if (options.check) {
    const rows = await engine.all('PRAGMA quick_check').catch((error: LeadError) => {
      db.close();
      throw error;
    });
    const problems = rows.map((row) => String(Object.values(row)[0])).filter((text) => text !== 'ok');
    if (problems.length > 0) {
      db.close();
      throw damaged(file, `quick_check: ${problems.slice(0, 2).join('; ')}`);
    }
  }
  return engine;
}

const BUSY_MS = 5_000;

// The switch to WAL takes the whole file and SQLite runs no busy handler for it: while another connection
// writes in rollback mode (a second sync creating the same new file, a sqlite3 shell), it is tried again
// within the busy timeout. A file already in WAL (it stays so) takes no lock.
async function enterWal(db: Database, until = Date.now() + BUSY_MS): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 10000');
    } catch (error) {
      if ((((error as { errcode?: number }).errcode ?? 0) & 0xff) !== 5 || Date.now() >= until) throw error;
      await wait(backoffMs(attempt));
    }
  }
}

/** An account as part of a file name: its letters and digits, the rest as "_". */
const lockName = (account: string) => account.replace(/[^A-Za-z0-9._-]/g, '_');

// Held for the whole run, so never stale by age; a lock whose process is gone (same host, no such pid) is
// taken over. `shown`: what is locked, for messages.
async function lockOneWriter(lockPath: string, command: string, shown: string) {
  try {
    return await takeLock(lockPath, { ...WHOLE_RUN, command });
  } catch (error) {
    if (error instanceof LockedError) {
      const { holder } = error;
      const who = holder
        ? `${holder.command ?? 'leadctl'} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`
        : 'another process';
      throw new UsageError(
        `${shown} is being synced by ${who}; one writer per account`,
        `wait for it to finish; if that process is gone, delete ${lockPath}`,
      );
    }
    const why = errorCode(error) === 'ENOENT' ? 'its folder does not exist' : reasonOf(error);
    throw new UsageError(`cannot lock ${shown}: ${why}`);
  }
}

// SQLite's own words ("database is locked") as exit 2 with the fix; a full disk is exit 1 (commits stay).
function sqliteError(error: unknown, file: string, phase: 'open' | 'write' = 'write'): LeadError {
  if (error instanceof LeadError) return error;
  const sqlite = error as { errstr?: unknown; errcode?: unknown };
  const reason = typeof sqlite.errstr === 'string' && sqlite.errstr ? sqlite.errstr : reasonOf(error);
  const code = typeof sqlite.errcode === 'number' ? sqlite.errcode & 0xff : undefined;
  if (code === 13) {
    return new LeadError(`cannot write database ${file}: ${reason}`, {
      exitCode: 1,
      hint: 'free some space and run it again: the rows committed so far are kept',
    });
  }
  if (code === 11) return damaged(file, reason);
  const hint =
    code === 5 || code === 6
      ? 'another program is writing to it: wait for it to finish'
      : code === 26
        ? 'name a SQLite database file that leadctl may use, or a new file'
        : undefined;
  return new UsageError(`cannot ${phase} database ${file}: ${reason}`, hint);
}

/** A file SQLite finds damaged is never written to: what it holds can still be recovered. */
function damaged(file: string, reason: string): UsageError {
  return new UsageError(
    `${file} is damaged (SQLite ${reason}); nothing was written to it`,
    `keep a copy, then rebuild it: sqlite3 ${file} .recover | sqlite3 new.db; leadctl sync --db new.db --full`,
  );
}

function realPathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
