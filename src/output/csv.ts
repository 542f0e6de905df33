// csv: RFC 4180. Records end with CRLF (the RFC's line break, which Excel and every csv library
// read; LF-only readers see a trailing \r only if they ignore the RFC). A field is quoted when it holds
// , " CR or LF, with inner quotes doubled. Values are exact apart from the formula guard.
import { cellText, columnsFor, fieldValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { guardFormula } from './formula.js';

export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

export function quoteCsvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function createCsvRenderer(options: RenderOptions): Renderer {
  const columns = columnsFor(options.fields, options.defaultFields);
  // Guard first, then quote: the ' must sit inside the quotes to be part of the cell.
  const cell = options.sanitize
    ? (value: unknown) => quoteCsvField(guardFormula(cellText(value)))
    : (value: unknown) => quoteCsvField(cellText(value));

  return {
    // Header names come from the spec or the user's own --fields: quoted, never guarded.
    start: () => (options.header ? columns.map(quoteCsvField).join(',') + CSV_LINE_END : ''),
    row: (item) => columns.map((column) => cell(fieldValue(item, column))).join(',') + CSV_LINE_END,
    finish: () => '',
  };
}
