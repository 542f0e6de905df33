// tsv: one record per line, fields separated by tab, like PostgreSQL's text COPY format. Inside a
// field a backslash is written \\, tab \t, LF \n, CR \r; every other control character or
// terminal-unsafe character gets the same visible escape as in a table (\x1b, \u009b, \u202e), so
// "\xHH" and "\uHHHH" stand for that code point. Reading back: split on tab, then undo the escapes.
import { cellText, columnsFor, fieldValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { UNSAFE_FOR_TERMINAL, visibleEscape } from './sanitize.js';

const UNSAFE_IN_TSV = new RegExp(`\\\\|${UNSAFE_FOR_TERMINAL.source}`, 'g');

export function escapeTsvField(text: string): string {
  return text.replace(UNSAFE_IN_TSV, (char) => (char === '\\' ? '\\\\' : visibleEscape(char)));
}

export function createTsvRenderer(options: RenderOptions): Renderer {
  const columns = columnsFor(options.fields, options.defaultFields);
  const line = (cells: readonly string[]) => `${cells.map(escapeTsvField).join('\t')}\n`;
  return {
    start: () => (options.header ? line(columns) : ''),
    row: (item) => line(columns.map((column) => cellText(fieldValue(item, column)))),
    finish: () => '',
  };
}
