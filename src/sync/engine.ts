// The SQLite engine: Node's built-in `node:sqlite` (Node 22.13+ and 24), loaded only by the runs that
// keep a database (sync, search --db and friends), so no other command's start-up changes. No
// dependency and no compiler: a native driver would build from source for about a minute wherever
// its prebuilt binaries are missing (docs/sync.md). On a Node without it: one line, exit 2.
import { UsageError } from '../api/errors.js';

/** A value SQLite stores: bigint binds as INTEGER, number as REAL. */
export type SqlValue = string | number | bigint | null;
export type SqlRow = Record<string, SqlValue>;

/** The part of node:sqlite's StatementSync leadctl uses. */
export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

/** The part of node:sqlite's DatabaseSync leadctl uses. */
export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

type DatabaseConstructor = new (path: string, options?: { readOnly?: boolean }) => SqlDatabase;

// A variable, not a literal: the types of Node 20 (which the project builds against) have no
// node:sqlite, and the bundler leaves a built-in module alone either way.
const ENGINE_MODULE = 'node:sqlite';

export const ENGINE_NEEDED = "Node's built-in SQLite (node:sqlite), in Node 22.13 or newer";

let loaded: DatabaseConstructor | undefined;

/** The DatabaseSync class; UsageError (exit 2) on a Node without it, before any request is sent. */
export async function loadSqlite(feature: string): Promise<DatabaseConstructor> {
  if (loaded) return loaded;
  // Node 22 marks node:sqlite experimental and prints an ExperimentalWarning when it loads: a notice
  // about Node, not about the user's run, so that one warning (and only it) is dropped.
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
