// Turns raw entries into searches, or into "line 3: ..." problems, and drops repeated searches.
// Every row is checked before the first request, so that a typo on line 40 cannot stop a batch after
// 39 searches were paid for.
import { createHash } from 'node:crypto';
import type { InputProblem, RawEntry } from './input-parse.js';

export interface SearchRow {
  /** 1-based line in the input, for messages. */
  line: number;
  query: string;
  location: string;
  radius?: number;
}

export const MIN_RADIUS = 1;
export const MAX_RADIUS = 50;
/** More than this many problems are summarized as "and N more". */
export const MAX_LISTED_PROBLEMS = 20;

export function validateEntries(entries: readonly RawEntry[]): {
  rows: SearchRow[];
  problems: InputProblem[];
} {
  const rows: SearchRow[] = [];
  const problems: InputProblem[] = [];
  for (const entry of entries) {
    const messages: string[] = [];
    const query = requiredText(entry.values.query, 'query', messages);
    const location = requiredText(entry.values.location, 'location', messages);
    const radius = optionalRadius(entry.values.radius, messages);
    if (messages.length > 0) problems.push({ line: entry.line, message: messages.join('; ') });
    else rows.push({ line: entry.line, query, location, ...(radius === undefined ? {} : { radius }) });
  }
  return { rows, problems };
}

function requiredText(value: unknown, name: string, messages: string[]): string {
  // Numbers are accepted as text: a zip code in JSON lines is often written as 78701.
  const text =
    typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  if (value === undefined || value === null || text === '') messages.push(`${name} is missing or empty`);
  else if (text === undefined) messages.push(`${name} must be text`);
  return text ?? '';
}

function optionalRadius(value: unknown, messages: string[]): number | undefined {
  // An empty CSV cell or a JSON null means "not given": the server's default applies.
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return undefined;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < MIN_RADIUS || n > MAX_RADIUS) {
    messages.push(
      `radius must be a whole number from ${MIN_RADIUS} to ${MAX_RADIUS} (found ${describe(value)})`,
    );
    return undefined;
  }
  return n;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 30 ? `${text.slice(0, 29)}…` : text;
}

/** "line 3: radius must be ...", in line order, at most MAX_LISTED_PROBLEMS of them. */
export function formatProblems(problems: readonly InputProblem[]): string[] {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const lines = sorted
    .slice(0, MAX_LISTED_PROBLEMS)
    .map((problem) =>
      problem.line > 0 ? `  line ${problem.line}: ${problem.message}` : `  ${problem.message}`,
    );
  if (sorted.length > MAX_LISTED_PROBLEMS) lines.push(`  and ${sorted.length - MAX_LISTED_PROBLEMS} more`);
  return lines;
}

// Identical rows are searched once. "Identical" is what the server would most likely treat as the
// same search: query and location compared trimmed, with runs of spaces collapsed and case ignored,
// and the same radius (an absent radius differs from an explicit 10: the server's default may change).

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
