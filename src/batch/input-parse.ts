// Reads a batch input file into raw entries (one per search, with its line number) without judging
// the values yet: CSV with a header row, or JSON lines. The first non-blank character decides:
// `{` means JSON lines, anything else CSV.
import { isBlankRecord, parseCsvRecords } from './csv-records.js';

export const INPUT_KEYS = ['query', 'location', 'radius'] as const;
export const REQUIRED_KEYS = ['query', 'location'] as const;

export interface RawEntry {
  line: number;
  values: Record<string, unknown>;
}

export interface InputProblem {
  /** 0 for a problem with the file as a whole (the CSV header). */
  line: number;
  message: string;
}

export interface ParsedInput {
  format: 'csv' | 'jsonl';
  entries: RawEntry[];
  problems: InputProblem[];
}

export function parseBatchInput(text: string): ParsedInput {
  const firstChar = text.replace(/^\uFEFF/, '').trimStart()[0];
  return firstChar === '{' ? parseJsonLines(text) : parseCsvInput(text);
}

const EXPECTED = `expected ${INPUT_KEYS.join(', ')}`;

function parseJsonLines(text: string): ParsedInput {
  const entries: RawEntry[] = [];
  const problems: InputProblem[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((source, index) => {
      const line = index + 1;
      if (source.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch {
        problems.push({ line, message: 'not valid JSON' });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push({
          line,
          message: 'expected a JSON object like {"query": "plumber", "location": "Austin"}',
        });
        return;
      }
      // Keys are matched like CSV headers: trimmed and case-insensitive.
      const values: Record<string, unknown> = {};
      const unknown: string[] = [];
      for (const [key, keyValue] of Object.entries(value)) {
        const name = key.trim().toLowerCase();
        if ((INPUT_KEYS as readonly string[]).includes(name)) values[name] = keyValue;
        else unknown.push(JSON.stringify(key));
      }
      if (unknown.length > 0) {
        problems.push({
          line,
          message: `unknown ${plural(unknown.length, 'key')} ${unknown.join(', ')} (${EXPECTED})`,
        });
        return;
      }
      entries.push({ line, values });
    });
  return { format: 'jsonl', entries, problems };
}

function parseCsvInput(text: string): ParsedInput {
  const { records, unterminatedQuoteLine } = parseCsvRecords(text);
  const problems: InputProblem[] = [];
  if (unterminatedQuoteLine !== undefined) {
    problems.push({ line: unterminatedQuoteLine, message: 'a quoted field is never closed (missing ")' });
  }
  const rows = records.filter((record) => !isBlankRecord(record));
  const header = rows.shift();
  if (!header) return { format: 'csv', entries: [], problems };

  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const headerProblems = checkHeader(columns, header.fields);
  if (headerProblems.length > 0) {
    problems.unshift(...headerProblems.map((message) => ({ line: header.line, message })));
    return { format: 'csv', entries: [], problems };
  }
  const entries: RawEntry[] = [];
  for (const record of rows) {
    if (record.fields.length !== columns.length) {
      problems.push({
        line: record.line,
        message: `expected ${columns.length} ${plural(columns.length, 'field')} like the header, found ${record.fields.length}`,
      });
      continue;
    }
    const values: Record<string, unknown> = {};
    columns.forEach((column, index) => {
      values[column] = record.fields[index];
    });
    entries.push({ line: record.line, values });
  }
  return { format: 'csv', entries, problems };
}

/**
 * Unknown columns are refused rather than ignored: a misspelt "raduis" column would otherwise
 * silently run every search at the default radius and spend the quota on the wrong searches.
 */
function checkHeader(columns: string[], original: string[]): string[] {
  const problems: string[] = [];
  const unknown = original.filter(
    (_, index) => !(INPUT_KEYS as readonly string[]).includes(columns[index] ?? ''),
  );
  if (unknown.length > 0) {
    const names = unknown.map((name) => JSON.stringify(name.trim())).join(', ');
    problems.push(`unknown ${plural(unknown.length, 'column')} ${names} in the header (${EXPECTED})`);
  }
  const repeated = columns.filter((name, index) => columns.indexOf(name) !== index);
  if (repeated.length > 0) problems.push(`column "${repeated[0]}" appears twice in the header`);
  const missing = REQUIRED_KEYS.filter((key) => !columns.includes(key));
  if (missing.length > 0) {
    problems.push(`the header has no ${missing.map((key) => `"${key}"`).join(' or ')} column (${EXPECTED})`);
  }
  return problems;
}

function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`;
}
