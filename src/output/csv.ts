// csv: RFC 4180. Records end with CRLF (the RFC's line break, which Excel and every csv library
// read; LF-only readers see a trailing \r only if they ignore the RFC). A field is quoted when it holds
// , " CR or LF, with inner quotes doubled. Values are exact apart from the formula guard.
//
// row() runs once per exported item, so it is written for speed: one string built by concatenation
// (no per-row arrays or closures), and the common cells (strings, missing values, plain numbers)
// handled before the general cellText().
import { ExactNumber } from '../api/exact-number.js';
import { sanitizeForTerminal } from '../text/terminal-text.js';
import { cellText, columnName, columnsFor, fieldValue } from './fields.js';
import { BYTE_ORDER_MARK, type RenderOptions, type TextRenderer } from './formats.js';
import { guardFormula } from './formula.js';

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

/**
 * csv on a terminal: a person reads it, so every control character or escape sequence in a cell (and a
 * header from --fields) shows as a visible escape, as in a table and tsv; to a pipe or file, bytes stay exact.
 */
function createTerminalCsvRenderer(options: RenderOptions): TextRenderer {
  const exact = createCsvRenderer({ ...options, terminal: false });
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
    finish: exact.finish,
  };
}
