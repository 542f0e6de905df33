// Rows in by their identity (leads and history by id, search results by place_id): a new identity is
// added; a known one whose item changed is updated; either way last_seen_at moves to this run.
// "Changed" compares the item as sent (the json column), so a field the columns do not show counts.

import type { SqlDatabase } from './engine.js';
import { COLUMNS, rowValues, type StoredTable } from './schema.js';

type Item = Record<string, unknown>;

export interface UpsertCounts {
  added: number;
  changed: number;
}

export interface RowUpserter {
  /** Items of one page or answer, seen at `seenAt` (ISO 8601). */
  upsert(items: readonly Item[], seenAt: string): UpsertCounts;
  /** The identities among `keys` that the table already holds. */
  known(keys: readonly string[]): Set<string>;
}

export function rowUpserter(db: SqlDatabase, table: StoredTable): RowUpserter {
  const columns = COLUMNS[table];
  const [idColumn] = columns;
  const all = [...columns, 'first_seen_at', 'last_seen_at', 'json'];
  const insert = db.prepare(
    `INSERT INTO ${table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`,
  );
  const update = db.prepare(
    `UPDATE ${table} SET ${[...columns.slice(1), 'last_seen_at', 'json'].map((c) => `${c} = ?`).join(', ')} WHERE ${idColumn} = ?`,
  );
  const touch = db.prepare(`UPDATE ${table} SET last_seen_at = ? WHERE ${idColumn} = ?`);
  const current = db.prepare(`SELECT json FROM ${table} WHERE ${idColumn} = ?`);
  return {
    upsert: (items, seenAt) => {
      const counts = { added: 0, changed: 0 };
      for (const item of items) {
        const { key, values, json } = rowValues(table, item);
        const before = current.get(key);
        if (before === undefined) {
          insert.run(...values, seenAt, seenAt, json);
          counts.added += 1;
        } else if (before.json !== json) {
          update.run(...values.slice(1), seenAt, json, key);
          counts.changed += 1;
        } else {
          touch.run(seenAt, key);
        }
      }
      return counts;
    },
    known: (keys) => {
      const found = new Set<string>();
      for (const key of keys) if (current.get(key) !== undefined) found.add(key);
      return found;
    },
  };
}
