// Which fields a format shows, and how one value becomes the text of a cell.
import { ExactNumber } from '../api/exact-number.js';
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
 * `domain`: the registrable domain of `website` (text/domain.ts), a field leadctl derives wherever an
 * item has a website; an item's own `domain`, if a server sends one, wins. Its library (tldts) costs
 * start-up time, so it loads only for a run that names the field (loadDerivedField).
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

/**
 * A value as cell text: null/undefined -> '', strings as they are, numbers with the digits the server
 * sent, booleans as JavaScript prints them, objects and arrays as compact JSON (so nothing is lost to
 * "[object Object]").
 */
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
