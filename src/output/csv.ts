// csv and tsv, and their formula guard (docs/output.md, "The formats"). row() runs once per exported
// item, so it is written for speed: one string built by concatenation, the common cells first.
import { ExactNumber } from '../api/exact-number.js';
import { sanitizeForTerminal, UNSAFE_FOR_TERMINAL, visibleEscape } from '../text/terminal-text.js';
import { cellText, columnName, columnsFor, fieldValue } from './fields.js';
import { BYTE_ORDER_MARK, type RenderOptions, type TextRenderer } from './formats.js';

export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

export function quoteCsvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One value as a csv field: formula-guarded first (the ' must sit inside the quotes), then quoted. */
export function csvField(value: unknown, sanitize: boolean): string {
  if (value === null || value === undefined) return '';
  // A finite number prints as digits, '.', 'e', and a sign only in front of digits: never quoted, and
  // never a formula (the guard lets signed numbers through). NaN and ±Infinity take the general path.
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  // The same holds for the digits of a JSON number a JS number would have changed.
  if (value instanceof ExactNumber) return value.digits;
  const text = typeof value === 'string' ? value : cellText(value);
  return quoteCsvField(sanitize ? guardFormula(text) : text);
}

/** The header row's cells: each column's name, through the same guard and quoting as a data cell. */
function headerCells(columns: readonly string[], options: RenderOptions): string[] {
  return columns.map((column) => csvField(columnName(column, options.labels), options.sanitize));
}

export function createCsvRenderer(options: RenderOptions): TextRenderer {
  if (options.terminal) return createTerminalCsvRenderer(options);
  const columns = columnsFor(options.fields, options.defaultFields);
  const sanitize = options.sanitize;

  return {
    // Header names come from the spec, the user's --fields labels or (--fields all) the server's keys:
    // guarded and quoted like any cell, so a key `=HYPERLINK(...)` is never a live formula.
    start: () =>
      (options.bom ? BYTE_ORDER_MARK : '') +
      (options.header ? headerCells(columns, options).join(',') + CSV_LINE_END : ''),
    row(item) {
      let line = '';
      for (let index = 0; index < columns.length; index++) {
        const field = csvField(fieldValue(item, columns[index] as string), sanitize);
        line += index === 0 ? field : `,${field}`;
      }
      return line + CSV_LINE_END;
    },
    finish: () => '',
  };
}

// csv on a terminal: a person reads it, so every control character or escape sequence in a cell (and a
// header from --fields) shows as a visible escape, as in a table and tsv; to a pipe or file, bytes stay
// exact.
function createTerminalCsvRenderer(options: RenderOptions): TextRenderer {
  const columns = columnsFor(options.fields, options.defaultFields);
  const safeField = (field: string) =>
    field.startsWith('"')
      ? quoteCsvField(sanitizeForTerminal(field.slice(1, -1).replaceAll('""', '"')))
      : sanitizeForTerminal(field);
  return {
    start: () =>
      (options.bom ? BYTE_ORDER_MARK : '') +
      (options.header ? headerCells(columns, options).map(safeField).join(',') + CSV_LINE_END : ''),
    row: (item) =>
      columns.map((column) => safeField(csvField(fieldValue(item, column), options.sanitize))).join(',') +
      CSV_LINE_END,
    finish: () => '',
  };
}

// The formula guard (CWE-1236, "CSV injection"): a leading + or - stays when the rest is plainly a number
// or a phone: such text can at worst be arithmetic of digits, never a function call (HYPERLINK) or DDE
// (cmd|'...'!A0). First characters are compared as char codes: this runs on every csv cell.
const TAB = 0x09;
const CR = 0x0d;
const PLUS = 0x2b;
const MINUS = 0x2d;
const EQUALS = 0x3d;
const AT = 0x40;

/** -3, +7, -12.5, -.5, -1,234.5, -1e5, +6.02E23 */
const SIGNED_NUMBER = /^[+-](?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** +1 512-555-0101, +44 20 7946 0958, +1 (512) 555.0101: digits, spaces, ( ) . - and at least one digit. */
const SIGNED_PHONE = /^[+-][\d ().-]*\d[\d ().-]*$/;

export function looksLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0); // NaN for '', which matches nothing below
  if (first === EQUALS || first === AT || first === TAB || first === CR) return true;
  if (first !== PLUS && first !== MINUS) return false;
  return !(SIGNED_NUMBER.test(text) || SIGNED_PHONE.test(text));
}

/** The cell text a spreadsheet will show as text: ' prefixed when it would run as a formula. */
export function guardFormula(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}

// tsv: escaped like PostgreSQL's text COPY format (docs/output.md, "The formats"). Cells get csv's formula
// guard, which looks at the value before escaping (a leading tab is a formula).
const UNSAFE_IN_TSV = new RegExp(`\\\\|${UNSAFE_FOR_TERMINAL.source}`, 'gu');

export function escapeTsvField(text: string): string {
  return text.replace(UNSAFE_IN_TSV, (char) => (char === '\\' ? '\\\\' : visibleEscape(char)));
}

export function createTsvRenderer(options: RenderOptions): TextRenderer {
  const columns = columnsFor(options.fields, options.defaultFields);
  const line = (cells: readonly string[]) => `${cells.map(escapeTsvField).join('\t')}\n`;
  const guard = options.sanitize ? guardFormula : (text: string) => text;
  return {
    // Header names may come from the server's keys (--fields all): guarded like any cell.
    start: () =>
      (options.bom ? BYTE_ORDER_MARK : '') +
      (options.header ? line(columns.map((column) => guard(columnName(column, options.labels)))) : ''),
    row: (item) => line(columns.map((column) => guard(cellText(fieldValue(item, column))))),
    finish: () => '',
  };
}
