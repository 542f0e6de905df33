// A batch input's records (CSV or a spreadsheet's with a header row, or JSON lines) as raw entries with
// their line numbers, values not judged yet. `--columns` maps the user's names to the known ones,
// `--ignore-extra` skips the rest (never silently).
import { UsageError } from '../api/errors.js';
import { closestMatch } from '../config/keys.js';
import { type CsvRecord, isBlankRecord, MAX_RECORD_CHARS } from './csv-records.js';

export const INPUT_KEYS = ['query', 'location', 'radius'] as const;
export const REQUIRED_KEYS = ['query', 'location'] as const;
export type InputKey = (typeof INPUT_KEYS)[number];

export interface RawEntry {
  line: number;
  values: Record<string, unknown>;
}

export interface InputProblem {
  line: number;
  message: string;
}

/** A row of the input: an entry, or what makes it a bad row. */
export type InputRow = RawEntry | InputProblem;

/** How the input's own names become the known columns (--columns and --ignore-extra). */
export interface ColumnRules {
  /** Known column -> the user's header (or JSON key) that fills it, trimmed (matched without case). */
  mapped: ReadonlyMap<InputKey, string>;
  ignoreExtra: boolean;
}

/** Something wrong with the header as a whole: load-input.ts names the input it was found in. */
export class HeaderError extends UsageError {}

const EXPECTED = `expected ${INPUT_KEYS.join(', ')}`;
const COLUMNS_HINT =
  'map your headers with --columns query=Trade,location=City,radius=Miles, or skip the other columns with --ignore-extra';

/** `query=Trade,location=City`: each known column once, from a header of the user's. */
export function parseColumnsFlag(text: string | undefined): Map<InputKey, string> {
  const mapped = new Map<InputKey, string>();
  if (text === undefined) return mapped;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const target = pair.slice(0, Math.max(at, 0)).trim().toLowerCase();
    const source = pair.slice(at + 1).trim();
    if (at < 0 || target === '' || source === '') {
      throw new UsageError(
        `--columns: ${JSON.stringify(pair.trim())} is not COLUMN=HEADER`,
        'e.g. --columns query=Trade,location=City,radius=Miles',
      );
    }
    if (!(INPUT_KEYS as readonly string[]).includes(target)) {
      const suggestion = closestMatch(target, INPUT_KEYS);
      throw new UsageError(
        `--columns: unknown column ${JSON.stringify(target)}${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        `the columns a search takes: ${INPUT_KEYS.join(', ')}`,
      );
    }
    if (mapped.has(target as InputKey)) throw new UsageError(`--columns: "${target}" is given twice`);
    mapped.set(target as InputKey, source);
  }
  return mapped;
}

/** What each of the input's names stands for: a known column, or an extra one. */
interface NameResolution {
  keys: Array<InputKey | undefined>;
  /** Extra names a known column is one typo away from (`raduis`): refused even with --ignore-extra. */
  misspelt: Array<{ name: string; key: InputKey }>;
  extra: string[];
  repeated: InputKey[];
}

function resolveNames(names: readonly string[], rules: ColumnRules): NameResolution {
  const mappedSources = new Map([...rules.mapped].map(([key, source]) => [source.toLowerCase(), key]));
  const keys = names.map((name): InputKey | undefined => {
    const normalized = name.trim().toLowerCase();
    const mappedKey = mappedSources.get(normalized);
    if (mappedKey) return mappedKey;
    // A known name that --columns fills from another header is an extra column here.
    const known = INPUT_KEYS.find((key) => key === normalized);
    return known && !rules.mapped.has(known) ? known : undefined;
  });
  const resolution: NameResolution = { keys, misspelt: [], extra: [], repeated: [] };
  keys.forEach((key, index) => {
    if (key && keys.indexOf(key) !== index) resolution.repeated.push(key);
  });
  names.forEach((name, index) => {
    if (keys[index]) return;
    // One letter added, dropped, changed, or two neighbours swapped.
    const near = closestMatch(
      name,
      INPUT_KEYS.filter((key) => !keys.includes(key)),
      1,
    ) as InputKey | undefined;
    if (near) resolution.misspelt.push({ name, key: near });
    else resolution.extra.push(name);
  });
  return resolution;
}

const quoteAll = (names: readonly string[]) => names.map(quoteName).join(', ');
const quoteName = (name: string) => JSON.stringify(name.trim());

function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`;
}

/**
 * Header rows to entries. Anything wrong with the header refuses the whole input: an unknown column
 * too, unless --ignore-extra (then added to `ignored`), since a misspelt "raduis" would spend the
 * quota on searches at the default radius.
 */
export async function* entriesFromRecords(
  batches: AsyncIterable<CsvRecord[]>,
  rules: ColumnRules,
  format: 'csv' | 'xlsx',
  ignored: Set<string>,
): AsyncGenerator<InputRow[]> {
  let header: ReturnType<typeof readHeader> | undefined;
  const entry = (record: CsvRecord): InputRow | undefined => {
    if (record.problem !== undefined) return { line: record.line, message: record.problem };
    if (isBlankRecord(record)) return undefined;
    if (!header) {
      header = readHeader(format === 'xlsx' ? trimEnd(record.fields) : record.fields, rules);
      for (const name of header.extra) ignored.add(name.trim());
      return undefined;
    }
    const { names, keys } = header;
    const width = format === 'xlsx' ? trimEnd(record.fields).length : record.fields.length;
    if (format === 'csv' ? width !== names.length : width > names.length) {
      const message =
        format === 'csv'
          ? `expected ${names.length} ${plural(names.length, 'field')} like the header, found ${width}`
          : `a value in column ${width}, which has no header`;
      return { line: record.line, message };
    }
    const values: Record<string, unknown> = {};
    keys.forEach((key, index) => {
      if (key) values[key] = record.fields[index] ?? '';
    });
    return { line: record.line, values };
  };
  for await (const records of batches) yield records.flatMap((record) => entry(record) ?? []);
}

function readHeader(names: string[], rules: ColumnRules) {
  // A spreadsheet's trailing cells may be empty: only named columns up to the last one count.
  const headerNames = names.map((name, index) => (name.trim() === '' ? `(column ${index + 1})` : name));
  checkMappedSources(headerNames, rules);
  const { keys, misspelt, extra, repeated } = resolveNames(headerNames, rules);
  if (misspelt.length > 0) {
    const [first] = misspelt;
    throw new HeaderError(
      `unknown ${plural(misspelt.length, 'column')} ${quoteAll(misspelt.map((m) => m.name))} in the header (did you mean "${first?.key}"?)`,
      `fix the header, or map it: --columns ${first?.key}=${first?.name.trim()}`,
    );
  }
  if (repeated.length > 0) throw new HeaderError(`column "${repeated[0]}" appears twice in the header`);
  if (extra.length > 0 && !rules.ignoreExtra) {
    throw new HeaderError(
      `unknown ${plural(extra.length, 'column')} ${quoteAll(extra)} in the header (${EXPECTED})`,
      COLUMNS_HINT,
    );
  }
  const missing = REQUIRED_KEYS.filter((key) => !keys.includes(key));
  if (missing.length > 0) {
    throw new HeaderError(
      `the header has no ${missing.map((key) => `"${key}"`).join(' or ')} column (${EXPECTED}; found ${quoteAll(headerNames)})`,
      COLUMNS_HINT,
    );
  }
  return { names, keys, extra };
}

function trimEnd(fields: readonly string[]): string[] {
  let end = fields.length;
  while (end > 0 && (fields[end - 1] ?? '').trim() === '') end -= 1;
  return fields.slice(0, end);
}

/** Each --columns source must be one of the header's names, and only one. */
function checkMappedSources(names: readonly string[], rules: ColumnRules): void {
  const normalized = names.map((name) => name.trim().toLowerCase());
  for (const [key, source] of rules.mapped) {
    const count = normalized.filter((name) => name === source.toLowerCase()).length;
    if (count === 1) continue;
    if (count > 1) throw new HeaderError(`--columns ${key}=${source}: the header has "${source}" twice`);
    const suggestion = closestMatch(
      source,
      names.map((name) => name.trim()),
    );
    throw new HeaderError(
      `--columns ${key}=${source}: the header has no column "${source}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
      `the header's columns: ${quoteAll(names)}`,
    );
  }
}

/** JSON lines, one object per line, read as the text comes (a batch per chunk); blank lines are skipped. */
export async function* entriesFromJsonLines(
  texts: AsyncIterable<string>,
  rules: ColumnRules,
  ignored: Set<string>,
): AsyncGenerator<InputRow[]> {
  let rest = '';
  let line = 0;
  for await (const text of texts) {
    const lines = (rest + text).split(/\r?\n/);
    rest = lines.pop() ?? '';
    const rows: InputRow[] = [];
    for (const source of lines) {
      line += 1;
      if (source.trim() !== '') rows.push(jsonEntry(source, line, rules, ignored));
    }
    if (rest.length > MAX_RECORD_CHARS) rows.push({ line: line + 1, message: 'a line longer than 1 MiB' });
    yield rows;
    if (rest.length > MAX_RECORD_CHARS) return;
  }
  if (rest.trim() !== '') yield [jsonEntry(rest, line + 1, rules, ignored)];
}

function jsonEntry(source: string, line: number, rules: ColumnRules, ignored: Set<string>): InputRow {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return { line, message: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, message: 'expected a JSON object like {"query": "plumber", "location": "Austin"}' };
  }
  // Keys are matched like CSV headers: trimmed and case-insensitive, mapped by --columns.
  const names = Object.keys(value);
  const { keys, misspelt, extra, repeated } = resolveNames(names, rules);
  const message =
    misspelt.length > 0
      ? `unknown ${plural(misspelt.length, 'key')} ${quoteAll(misspelt.map((m) => m.name))}; did you mean "${misspelt[0]?.key}"?`
      : repeated.length > 0
        ? `key "${repeated[0]}" is given twice`
        : extra.length > 0 && !rules.ignoreExtra
          ? `unknown ${plural(extra.length, 'key')} ${quoteAll(extra)} (${EXPECTED}; or skip them with --ignore-extra)`
          : undefined;
  if (message) return { line, message };
  const values: Record<string, unknown> = {};
  keys.forEach((key, keyIndex) => {
    if (key) values[key] = (value as Record<string, unknown>)[names[keyIndex] as string];
  });
  for (const name of extra) ignored.add(name.trim());
  return { line, values };
}
