// table: cli-table3 with plain styling (its default colours headers red even when piped), every cell
// sanitized for the terminal, numbers right-aligned, and columns fitted to the terminal width.
// The table must see every row before it can size columns, so rows are buffered until finish().
import Table from 'cli-table3';
import { fitColumnWidths } from './column-widths.js';
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

  return {
    start: () => '',
    row(item) {
      rows.push(
        columns.map((column) => {
          const value = fieldValue(item, column);
          return { text: sanitizeForTerminal(cellText(value)), alignRight: isNumberValue(value) };
        }),
      );
      return '';
    },
    finish: () => (rows.length === 0 ? '' : renderTable(columns.map(sanitizeForTerminal), rows, options)),
  };
}

function renderTable(headings: string[], rows: TableCell[][], options: RenderOptions): string {
  const natural = headings.map((heading, index) => {
    let widest = options.header ? displayWidth(heading) : 0;
    for (const row of rows) widest = Math.max(widest, displayWidth(row[index]?.text ?? ''));
    return widest + PADDING;
  });
  // Border characters: one left of each column plus the closing one on the right.
  const available =
    options.width === undefined ? Number.POSITIVE_INFINITY : options.width - (headings.length + 1);
  const widths = fitColumnWidths(natural, available);
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
  return `${table.toString()}\n`;
}
