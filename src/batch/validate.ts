// Turns raw entries into searches, or into "line 3: ..." problems, and says when two are the same search.
// Every row is checked before the first request: a typo on line 40 cannot stop a batch 39 searches in.
import type { InputProblem, RawEntry } from './input-parse.js';

export interface SearchRow {
  line: number;
  query: string;
  location: string;
  radius?: number;
}

export const MIN_RADIUS = 1;
export const MAX_RADIUS = 50;
/** Problems listed before "and N more". */
export const MAX_LISTED_PROBLEMS = 20;

/** One entry as a search, or as the problem that makes it a bad row. */
export function validateEntry(entry: RawEntry): SearchRow | InputProblem {
  const messages: string[] = [];
  const query = requiredText(entry.values.query, 'query', messages);
  const location = requiredText(entry.values.location, 'location', messages);
  const radius = optionalRadius(entry.values.radius, messages);
  if (messages.length > 0) return { line: entry.line, message: messages.join('; ') };
  return { line: entry.line, query, location, ...(radius === undefined ? {} : { radius }) };
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

/** "line 3: radius must be ...": the first MAX_LISTED_PROBLEMS (the reader keeps no more), then "and N more". */
export function formatProblems(listed: readonly InputProblem[], total = listed.length): string[] {
  const lines = [...listed]
    .sort((a, b) => a.line - b.line)
    .slice(0, MAX_LISTED_PROBLEMS)
    .map((problem) => `  line ${problem.line}: ${problem.message}`);
  if (total > lines.length) lines.push(`  and ${total - lines.length} more`);
  return lines;
}

// Identical rows are searched once. "Identical" is what the server would most likely treat as the
// same search: query and location compared trimmed, with runs of spaces collapsed and case ignored,
// and the same radius (an absent radius differs from an explicit 10: the server's default may change).
export function searchKey(row: Pick<SearchRow, 'query' | 'location' | 'radius'>): string {
  const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return JSON.stringify([normal(row.query), normal(row.location), row.radius ?? null]);
}

/**
 * A unique row's line of the input fingerprint (a SHA-256 of the values as sent, not the dedupe keys):
 * any edit that could change the output makes a resume refuse.
 */
export function fingerprintLine(row: SearchRow): string {
  return `${JSON.stringify([row.query, row.location, row.radius ?? null])}\n`;
}
