// Where each list stood at the last committed sync: the ids at its newest end (the --checkpoint
// rule, docs/checkpoint.md, kept in the database instead of a file) and the account it belongs to.
// A database holds one account: a sync of another is refused before any request.
import { UsageError } from '../api/errors.js';
import type { ListResource } from '../api/paging/index.js';
import type { SqlDatabase } from './engine.js';

export interface ListState {
  head: string[];
  total: number;
}

export function readListState(
  db: SqlDatabase,
  file: string,
  resource: ListResource,
  account: string,
): ListState | undefined {
  const row = db.prepare('SELECT account, head, total FROM sync_state WHERE resource = ?').get(resource);
  if (row === undefined) return undefined;
  if (row.account !== account) {
    throw new UsageError(
      `${file} mirrors another account (${String(row.account)}), not ${account}`,
      'give each account (profile and server) a database of its own: --db FILE',
    );
  }
  let head: unknown;
  try {
    head = JSON.parse(String(row.head));
  } catch {
    head = undefined;
  }
  if (!Array.isArray(head) || !head.every((id) => typeof id === 'string')) {
    throw new UsageError(
      `${file}: the sync_state row of ${resource} was changed by hand and cannot be read`,
      `delete it (DELETE FROM sync_state WHERE resource = '${resource}') to fetch every ${resource === 'leads' ? 'lead' : 'history entry'} again`,
    );
  }
  return { head, total: Number(row.total) };
}

export function writeListState(
  db: SqlDatabase,
  resource: ListResource,
  account: string,
  state: ListState,
  now: string,
): void {
  db.prepare(
    `INSERT INTO sync_state (resource, account, head, total, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (resource) DO UPDATE SET account = excluded.account, head = excluded.head,
       total = excluded.total, updated_at = excluded.updated_at`,
  ).run(resource, account, JSON.stringify(state.head), BigInt(state.total), now);
}
