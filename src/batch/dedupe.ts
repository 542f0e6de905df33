// Identical rows are searched once. "Identical" is what the server would most likely treat as the
// same search: query and location compared trimmed, with runs of spaces collapsed and case ignored,
// and the same radius (an absent radius differs from an explicit 10: the server's default may change).
import { createHash } from 'node:crypto';
import type { SearchRow } from './validate.js';

export interface DedupedRows {
  /** The first row of each group, in input order: the searches to run. */
  unique: SearchRow[];
  /** Later rows that repeat an earlier one, with the line of the row they repeat. */
  duplicates: Array<{ row: SearchRow; firstLine: number }>;
}

export function searchKey(row: Pick<SearchRow, 'query' | 'location' | 'radius'>): string {
  const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return JSON.stringify([normal(row.query), normal(row.location), row.radius ?? null]);
}

export function dedupeRows(rows: readonly SearchRow[]): DedupedRows {
  const firstLineByKey = new Map<string, number>();
  const unique: SearchRow[] = [];
  const duplicates: DedupedRows['duplicates'] = [];
  for (const row of rows) {
    const key = searchKey(row);
    const firstLine = firstLineByKey.get(key);
    if (firstLine === undefined) {
      firstLineByKey.set(key, row.line);
      unique.push(row);
    } else {
      duplicates.push({ row, firstLine });
    }
  }
  return { unique, duplicates };
}

/**
 * Identifies the list of searches a state file belongs to. It hashes the values as they are sent and
 * written (not the dedupe keys), so any edit that could change the output makes a resume refuse.
 */
export function inputFingerprint(unique: readonly SearchRow[]): string {
  const hash = createHash('sha256');
  for (const row of unique) hash.update(`${JSON.stringify([row.query, row.location, row.radius ?? null])}\n`);
  return hash.digest('hex');
}
