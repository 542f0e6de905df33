// tsv: one record per line, fields separated by tab, like PostgreSQL's text COPY format. Inside a
// field a backslash is written \\, tab \t, LF \n, CR \r; every other control character or
// terminal-unsafe character gets the same visible escape as in a table (\x1b, \u009b, \u202e), so
// "\xHH" and "\uHHHH" stand for that code point. Reading back: split on tab, then undo the escapes.
// Spreadsheets open TSV too: cells they would run as formulas get csv's guard (a leading '), unless
// --no-sanitize. The guard looks at the value itself, before escaping (a leading tab is a formula).

import { UNSAFE_FOR_TERMINAL, visibleEscape } from '../text/terminal-text.js';
import { cellText, columnName, columnsFor, fieldValue } from './fields.js';
import { BYTE_ORDER_MARK, type RenderOptions, type TextRenderer } from './formats.js';
import { guardFormula } from './formula.js';

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
