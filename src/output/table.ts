// table: cli-table3 with plain styling (its default colours headers red even when piped), every cell
// sanitized for the terminal, numbers right-aligned, and columns fitted to the terminal width.
// The table must see every row before it can size columns, so rows are buffered until finish().
import Table from 'cli-table3';
import { fitColumnWidths, fitsComfortably } from './column-widths.js';
import { displayWidth, truncateToWidth } from './display-width.js';
import { cellText, columnsFor, fieldValue, isNumberValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { sanitizeForTerminal } from './sanitize.js';

const PADDING = 2; // cli-table3's one space either side, counted inside colWidths
const BOLD_ON = '\x1b[1m';
const BOLD_OFF = '\x1b[22m';

interface TableCell {
  text: string;
  alignRight: boolean;
}

export function createTableRenderer(options: RenderOptions): Renderer {
  const columns = columnsFor(options.fields, options.tableFields);
  const rows: TableCell[][] = [];
  // Columns that showed a UTC timestamp shortened: their heading says the zone.
  const inUtc = new Set<number>();
  let hidden: string[] = [];

  return {
    start: () => '',
    row(item) {
      rows.push(
        columns.map((column, index) => {
          const value = fieldValue(item, column);
          const time = utcTime(value);
          if (time !== undefined) inUtc.add(index);
          return {
            text: sanitizeForTerminal(time ?? cellText(value)),
            alignRight: isNumberValue(value),
          };
        }),
      );
      return '';
    },
    finish: () => {
      if (rows.length === 0) return '';
      const headings = columns.map((column, index) =>
        sanitizeForTerminal(inUtc.has(index) ? `${column} (UTC)` : column),
      );
      const { text, shown } = renderTable(headings, rows, options);
      hidden = columns.slice(shown);
      return text;
    },
    notes: () =>
      hidden.length === 0
        ? []
        : [
            `${hidden.length} of ${columns.length} columns hidden to fit ${options.width} columns (${hidden.join(', ')}): pick columns with --fields, e.g. --fields ${columns.join(',')}`,
          ],
  };
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]00:?00)$/;

/** A table is read by a person: an ISO UTC timestamp shows as "2026-11-22 05:59" (json and csv stay exact). */
function utcTime(value: unknown): string | undefined {
  const iso = typeof value === 'string' ? ISO_UTC.exec(value) : null;
  return iso ? `${iso[1]} ${iso[2]}` : undefined;
}

// Border characters: one left of each column plus the closing one on the right.
const widthForCells = (terminalWidth: number | undefined, columns: number) =>
  terminalWidth === undefined ? Number.POSITIVE_INFINITY : terminalWidth - (columns + 1);

/**
 * The default columns come most useful first: on a narrow terminal the last ones are left out (never
 * fewer than two) rather than cutting every column to a few characters, as gh does. Columns the user
 * named with --fields are all kept.
 */
function columnsThatFit(natural: number[], options: RenderOptions): number {
  if (options.fields && options.fields.length > 0) return natural.length;
  let count = natural.length;
  while (count > 2 && !fitsComfortably(natural.slice(0, count), widthForCells(options.width, count)))
    count -= 1;
  return count;
}

/** The table's text, and how many of the columns it shows (the rest were left out to fit). */
function renderTable(
  allHeadings: string[],
  allRows: TableCell[][],
  options: RenderOptions,
): { text: string; shown: number } {
  const allNatural = allHeadings.map((heading, index) => {
    let widest = options.header ? displayWidth(heading) : 0;
    for (const row of allRows) widest = Math.max(widest, displayWidth(row[index]?.text ?? ''));
    return widest + PADDING;
  });
  const count = columnsThatFit(allNatural, options);
  const headings = allHeadings.slice(0, count);
  const rows = count === allHeadings.length ? allRows : allRows.map((row) => row.slice(0, count));
  const natural = allNatural.slice(0, count);
  const widths = fitColumnWidths(natural, widthForCells(options.width, count));
  const cutToColumn = (text: string, index: number) =>
    truncateToWidth(text, (widths[index] ?? PADDING) - PADDING);

  const table = new Table({
    ...(options.header
      ? {
          head: headings.map((heading, index) =>
            options.color ? BOLD_ON + cutToColumn(heading, index) + BOLD_OFF : cutToColumn(heading, index),
          ),
        }
      : {}),
    colWidths: widths,
    // Cells are already cut to size by cutToColumn(); cli-table3's own truncation could split an emoji.
    wordWrap: false,
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows) {
    table.push(
      row.map((cell, index) => ({
        content: cutToColumn(cell.text, index),
        ...(cell.alignRight ? { hAlign: 'right' as const } : {}),
      })),
    );
  }
  return { text: `${table.toString()}\n`, shown: count };
}
