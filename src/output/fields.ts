// Which fields a format shows (--fields, checked against what the server sends: below), and how one
// value becomes the text of a cell.
import { UsageError } from '../api/errors.js';
import { asSent, ExactNumber } from '../api/exact-number.js';
import { closestMatch } from '../config/keys.js';
import { sanitizeForTerminal } from '../text/terminal-text.js';
import { jsonText } from './json-text.js';

/** The columns of a csv, tsv or table: --fields when given, else the format's default list. */
export function columnsFor(
  fields: readonly string[] | undefined,
  defaults: readonly string[],
): readonly string[] {
  return fields && fields.length > 0 ? fields : defaults;
}

/** A column's name in a header or as a json key: its --fields label, else the field itself. */
export function columnName(field: string, labels: Readonly<Record<string, string>> | undefined): string {
  return labels && Object.hasOwn(labels, field) ? (labels[field] as string) : field;
}

/**
 * `domain`: derived, the registrable domain of `website` (an item's own `domain` wins). Its library
 * (tldts) costs start-up time: it loads only for a run that names the field (loadDerivedField).
 */
export const DOMAIN = 'domain';
let domainOf: ((website: unknown) => string | undefined) | undefined;

/** Loads what `domain` needs when `names` (--fields, --where) include it. */
export async function loadDerivedField(names: readonly string[]): Promise<void> {
  if (names.includes(DOMAIN) && !domainOf) domainOf = (await import('../text/domain.js')).registrableDomain;
}

/** The value of one field; a field the item lacks reads as undefined (never an inherited property). */
export function fieldValue(item: Record<string, unknown>, field: string): unknown {
  if (Object.hasOwn(item, field)) return item[field];
  return field === DOMAIN && domainOf ? domainOf(fieldValue(item, 'website')) : undefined;
}

/** A value as cell text: null/undefined '', numbers with the digits sent, objects as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof ExactNumber) return value.digits;
  return jsonText(value);
}

/** Right-align real numbers in a table; numeric-looking strings stay text. */
export function isNumberValue(value: unknown): boolean {
  return typeof value === 'number' || typeof value === 'bigint' || value instanceof ExactNumber;
}

// --fields and `all`: docs/output.md, "`--fields`". An unknown name is refused: an empty column would
// look like missing data.
export const ALL_FIELDS = 'all';

export const FIELDS_GRAMMAR =
  'FIELD or FIELD:LABEL, separated by commas; quote a label with "..." to hold , or : ("" for a quote), e.g. --fields \'name:Company,phone:"Phone, main",website\'';

/**
 * --fields cut into entries at the commas outside quotes. Entries keep their quotes, so that joined with
 * `,` they read back the same (a footer's "Next:" command and a batch's state repeat them).
 */
export function splitFieldList(text: string): string[] {
  const entries: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      entries.push(current);
      current = '';
    } else current += char;
  }
  if (quoted)
    throw new UsageError(`invalid --fields ${JSON.stringify(text)}: a quote is not closed`, FIELDS_GRAMMAR);
  entries.push(current);
  const kept = entries.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  if (kept.length === 0)
    throw new UsageError('invalid --fields: expected field names separated by commas', FIELDS_GRAMMAR);
  columnNames(kept);
  return kept;
}

/** The fields to pick and the column name each gets (only the renamed ones). */
export interface FieldChoice {
  names: string[];
  labels: Record<string, string>;
}

/** Entries of splitFieldList as field names and labels; a repeated column name is refused. */
export function columnNames(entries: readonly string[]): FieldChoice {
  const names: string[] = [];
  const labels: Record<string, string> = Object.create(null);
  const columns = new Set<string>();
  for (const entry of entries) {
    const [field, label] = entryParts(entry);
    if (label !== undefined) labels[field] = label;
    const column = label ?? field;
    if (columns.has(column))
      throw new UsageError(`duplicate column name in --fields: ${JSON.stringify(column)}`, FIELDS_GRAMMAR);
    columns.add(column);
    names.push(field);
  }
  return { names, labels };
}

/** `name` -> [name]; `name:Company` -> [name, Company]; `phone:"A, B"` -> [phone, 'A, B']. */
function entryParts(entry: string): [string, string?] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let index = 0; index < entry.length; index++) {
    const char = entry.charAt(index);
    if (char === '"') {
      // "" inside quotes is one quote; a quote opens only at the start of a part.
      if (quoted && entry.charAt(index + 1) === '"') {
        current += '"';
        index++;
      } else if (quoted || current.trim() === '') {
        quoted = !quoted;
        if (quoted) {
          current = '';
          wasQuoted = true;
        }
      } else throw badEntry(entry, 'a quote inside an unquoted name: quote the whole name');
    } else if (char === ':' && !quoted && parts.length === 0) {
      parts.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else if (!quoted && wasQuoted && char.trim() !== '') {
      throw badEntry(entry, 'text after a closing quote');
    } else current += char;
  }
  parts.push(wasQuoted ? current : current.trim());
  const [field = '', label] = parts;
  if (field === '') throw badEntry(entry, 'no field name');
  if (label === '') throw badEntry(entry, 'an empty column name after ":"');
  // A name typed here becomes a header cell: a control or invisible character in it is a slip (a paste,
  // a stray escape), never something a CRM or a terminal should get, so it is refused rather than kept.
  for (const name of parts) {
    if (sanitizeForTerminal(name) !== name)
      throw badEntry(entry, `a control or invisible character in the name: ${sanitizeForTerminal(name)}`);
  }
  return label === undefined ? [field] : [field, label];
}

function badEntry(entry: string, why: string): UsageError {
  return new UsageError(`invalid --fields entry ${JSON.stringify(entry)}: ${why}`, FIELDS_GRAMMAR);
}

type Item = Record<string, unknown>;

/** Before any request: `all` stands alone. */
export function checkFieldsFlag(entries: readonly string[] | undefined): void {
  const requested = entries && columnNames(entries).names;
  if (requested?.includes(ALL_FIELDS) && requested.length > 1) {
    throw new UsageError('--fields all cannot be combined with other field names');
  }
}

/** The columns or keys to write, given the first page; undefined keeps the format's default. */
export function resolveFields(
  entries: readonly string[] | undefined,
  specFields: readonly string[],
  firstPage: readonly Item[],
  keepsWholeItems: boolean,
): string[] | undefined {
  if (entries === undefined || entries.length === 0) return undefined;
  const requested = columnNames(entries).names;
  if (requested[0] === ALL_FIELDS) {
    if (keepsWholeItems) return undefined;
    return firstPage.length === 0 ? [...specFields] : fieldsOf(firstPage);
  }
  // Nothing came back: no key to check against beyond the spec, and no row to show anyway.
  if (firstPage.length === 0) return [...requested];
  const known = knownFields(specFields, firstPage);
  const unknown = requested.filter((field) => !known.includes(field));
  if (unknown.length > 0) {
    const guess = unknown.length === 1 ? closestMatch(unknown[0] as string, known) : undefined;
    throw new UsageError(
      `unknown field${unknown.length === 1 ? '' : 's'} in --fields: ${unknown.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`,
      `known fields: ${known.join(', ')} (or --fields all)`,
    );
  }
  return [...requested];
}

/** The renamed columns of --fields (`name:Company`), or undefined when none is renamed. */
export function fieldLabels(entries: readonly string[] | undefined): Record<string, string> | undefined {
  if (!entries) return undefined;
  const { labels } = columnNames(entries);
  return Object.keys(labels).length > 0 ? labels : undefined;
}

/** The fields a name may pick: the spec's, `domain` where there is a website, every key of the first page. */
export function knownFields(specFields: readonly string[], firstPage: readonly Item[]): string[] {
  const derived = specFields.includes('website') ? [DOMAIN] : [];
  return [...new Set([...specFields, ...derived, ...fieldsOf(firstPage)])];
}

/** Every key the server sent in the page's items, in the order first seen. */
function fieldsOf(items: readonly Item[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(asSent(item))) seen.add(key);
  return [...seen];
}
