// Opening a leadctl database for writing: the engine (exit 2 on a Node without it), the writer lock,
// the file (its folder made private when it is leadctl's default place), the tables, and a
// transaction helper. Everything here happens before the first request.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { makePrivateDir } from '../config/paths.js';
import { reasonOf } from '../output/destination.js';
import { loadSqlite, type SqlDatabase } from './engine.js';
import { DATA_FOLDER } from './paths.js';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { takeWriterLock } from './writer-lock.js';

export interface OpenDatabase {
  db: SqlDatabase;
  /** The file as the user named it. */
  file: string;
  /** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface OpenOptions {
  file: string;
  /** leadctl's default place: its folder is made (0700) when missing. */
  isDefault: boolean;
  /** Who holds the lock, for the message a second writer gets: "leadctl sync". */
  command: string;
  /** What needs the engine, for the message on a Node without it: "leadctl sync". */
  feature: string;
}

export async function openDatabase(options: OpenOptions): Promise<OpenDatabase> {
  const DatabaseSync = await loadSqlite(options.feature);
  const { file } = options;
  if (options.isDefault) makePrivateDir(path.dirname(file), DATA_FOLDER);
  // Through a symlink, the file it points at is the one locked and written (as -o writes through).
  const real = realPathOr(file);
  const lock = takeWriterLock(real, options.command, file);
  let db: SqlDatabase | undefined;
  try {
    const existed = fs.existsSync(real);
    try {
      db = new DatabaseSync(real);
    } catch (error) {
      throw new UsageError(`cannot open database ${file}: ${sqliteReason(error)}`);
    }
    if (!existed) fs.chmodSync(real, 0o600);
    prepareTables(db, file);
  } catch (error) {
    db?.close();
    lock.release();
    throw error;
  }
  const open = db;
  let closed = false;
  return {
    db: open,
    file,
    transaction: async (work) => {
      // IMMEDIATE: the write lock is taken now, with a busy timeout of 0, so another writer (a
      // sqlite3 shell in a write) is an error at once rather than a wait or a failure at the end.
      run(open, file, 'BEGIN IMMEDIATE');
      try {
        const result = await work();
        run(open, file, 'COMMIT');
        return result;
      } catch (error) {
        try {
          open.exec('ROLLBACK');
        } catch {
          // Already rolled back by SQLite itself.
        }
        throw error;
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      open.close();
      lock.release();
    },
  };
}

function prepareTables(db: SqlDatabase, file: string): void {
  // WAL: readers (sqlite3, Datasette) keep reading the last committed state during a long sync,
  // which a rollback journal would block once the transaction outgrows SQLite's page cache.
  run(db, file, 'PRAGMA busy_timeout = 0; PRAGMA journal_mode = WAL');
  let version: number;
  try {
    version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  } catch (error) {
    throw new UsageError(`cannot read database ${file}: ${sqliteReason(error)}`, hintFor(error));
  }
  if (version > SCHEMA_VERSION) {
    throw new UsageError(
      `${file} was written by a newer leadctl (schema ${version}; this one knows ${SCHEMA_VERSION})`,
      'upgrade leadctl, or name another --db file',
    );
  }
  run(db, file, `BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT`);
}

function run(db: SqlDatabase, file: string, sql: string): void {
  try {
    db.exec(sql);
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // No transaction was open.
    }
    throw new UsageError(`cannot write database ${file}: ${sqliteReason(error)}`, hintFor(error));
  }
}

/** SQLite's own words for a failure ("database is locked", "file is not a database"). */
export function sqliteReason(error: unknown): string {
  const sqlite = error as { errstr?: unknown; message?: unknown };
  if (typeof sqlite.errstr === 'string' && sqlite.errstr) return sqlite.errstr;
  return reasonOf(error);
}

function hintFor(error: unknown): string | undefined {
  const reason = sqliteReason(error);
  if (/locked|busy/i.test(reason)) return 'another program is writing to it: wait for it to finish';
  if (/not a database/i.test(reason))
    return 'name a SQLite database file that leadctl may use, or a new file';
  return undefined;
}

function realPathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
