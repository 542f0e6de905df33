// table: borderless aligned columns, laid out once from the first rows and streamed, so memory stays
// bounded whatever the row count (docs/output.md, "The formats").

import { sanitizeForTerminal } from '../text/terminal-text.js';
import { cellText, columnName, columnsFor, fieldValue, isNumberValue } from './fields.js';
import type { RenderOptions, TextRenderer } from './formats.js';

/** Rows held back to lay out the columns when no page end (flush) comes first. */
export const SAMPLE_ROWS = 100;
const GAP = '  ';
const BOLD_ON = '\x1b[1m';
const BOLD_OFF = '\x1b[22m';
// The columns a person triages leads by, most needed first (docs/output.md, "The formats": table).
const DECIDING = ['name', 'rating', 'phone', 'website'];
/** A long column (an address, a category) is cut down to this before any column is left out. */
const LONG_MIN = 16;

interface TableCell {
  text: string;
  /** An ISO UTC time as "2026-11-22 05:59", when the value is one. */
  time: string | undefined;
  alignRight: boolean;
}

interface Layout {
  /** Indexes into the columns, in order. */
  shown: number[];
  /** Terminal columns of each shown column; the last may be Infinity (nothing to fit). */
  widths: number[];
  inUtc: Set<number>;
  /** A shown column's heading is right-aligned over numbers. */
  rightHeadings: Set<number>;
  /** With a width to fit, a later wider cell is cut; without one it is written whole (nothing lost). */
  cut: boolean;
}

export function createTableRenderer(options: RenderOptions): TextRenderer {
  const columns = columnsFor(options.fields, options.tableFields);
  let sample: TableCell[][] = [];
  let layout: Layout | undefined;
  let hidden: string[] = [];

  const cellsOf = (item: Record<string, unknown>): TableCell[] =>
    columns.map((column) => {
      const value = fieldValue(item, column);
      const time = utcTime(value);
      const text = column === 'website' ? shortWebsite(cellText(value)) : cellText(value);
      return {
        text: sanitizeForTerminal(text),
        time,
        alignRight: isNumberValue(value),
      };
    });

  /** Lays the columns out from the sample, writes the header and the sample's rows. */
  const layOut = (): string => {
    const rows = sample;
    sample = [];
    if (rows.length === 0) return '';
    layout = planLayout(columns, rows, options);
    hidden = columns.filter((_, index) => !layout?.shown.includes(index));
    let text = options.header ? headerLine(columns, layout, options) : '';
    for (const row of rows) text += rowLine(row, layout);
    return text;
  };

  return {
    start: () => '',
    row(item) {
      const cells = cellsOf(item);
      if (layout) return rowLine(cells, layout);
      sample.push(cells);
      return sample.length >= SAMPLE_ROWS ? layOut() : '';
    },
    // The end of a page: the columns are laid out from it, and its rows shown at once.
    flush: () => (layout ? '' : layOut()),
    finish: () => (layout ? '' : layOut()),
    // One line at 80 columns for the usual few, as the table's header must stay on a 24-line screen.
    notes: () =>
      hidden.length === 0
        ? []
        : wrapWords(
            `${hidden.join(', ')} hidden at ${options.width} columns: pick with --fields.`,
            options.width ?? 80,
          ),
  };
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]00:?00)$/;

/** A table is read by a person: an ISO UTC timestamp shows as "2026-11-22 05:59" (json and csv stay exact). */
function utcTime(value: unknown): string | undefined {
  const iso = typeof value === 'string' ? ISO_UTC.exec(value) : null;
  return iso ? `${iso[1]} ${iso[2]}` : undefined;
}

/** "https://www.example.com/" -> "example.com": the part a person reads, in a column that can be narrow. */
export function shortWebsite(url: string): string {
  const short = url.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
  return /^[^/]+\/$/.test(short) ? short.slice(0, -1) : short;
}

/** A column's heading: its --fields label or field name (with its zone when it holds times), escaped. */
function headingOf(
  columns: readonly string[],
  index: number,
  inUtc: Set<number>,
  options: RenderOptions,
): string {
  const column = columnName(columns[index] ?? '', options.labels);
  return sanitizeForTerminal(inUtc.has(index) ? `${column} (UTC)` : column);
}

function cellTextIn(cell: TableCell | undefined, index: number, inUtc: Set<number>): string {
  if (!cell) return '';
  return inUtc.has(index) && cell.time !== undefined ? cell.time : cell.text;
}

function planLayout(columns: readonly string[], rows: TableCell[][], options: RenderOptions): Layout {
  const inUtc = new Set<number>();
  const rightHeadings = new Set<number>();
  columns.forEach((_, index) => {
    if (rows.some((row) => row[index]?.time !== undefined)) inUtc.add(index);
    const filled = rows.filter((row) => row[index]?.text);
    if (filled.length > 0 && filled.every((row) => row[index]?.alignRight)) rightHeadings.add(index);
  });
  const natural = columns.map((_, index) => {
    let widest = options.header ? displayWidth(headingOf(columns, index, inUtc, options)) : 0;
    for (const row of rows) widest = Math.max(widest, displayWidth(cellTextIn(row[index], index, inUtc)));
    return widest;
  });
  const deciding = (index: number) => DECIDING.includes(columns[index] ?? '');
  const cells = (index: number) => natural[index] ?? 0;
  const needs = (indexes: number[]) =>
    indexes.reduce(
      (sum, index) => sum + (deciding(index) ? cells(index) : Math.min(cells(index), LONG_MIN)),
      0,
    ) +
    GAP.length * (indexes.length - 1);
  const shown = columns.map((_, index) => index);
  const width = options.width;
  // Only the default columns are fitted by leaving some out (docs/output.md, "The formats": table).
  if (width !== undefined && !options.fields?.length) {
    const leftOut = [
      ...shown.filter((index) => !deciding(index)).reverse(),
      ...DECIDING.slice(1)
        .reverse()
        .map((field) => columns.indexOf(field))
        .filter((index) => index >= 0),
    ];
    for (const index of leftOut) {
      if (shown.length <= 2 || needs(shown) <= width) break;
      shown.splice(shown.indexOf(index), 1);
    }
  }
  let widths = shown.map(cells);
  if (width !== undefined) {
    const room = width - GAP.length * (shown.length - 1);
    if (needs(shown) <= width) {
      // The deciding columns whole; the long ones share what is left.
      const whole = shown.filter(deciding).reduce((sum, index) => sum + cells(index), 0);
      const cut = capWidths(shown.filter((index) => !deciding(index)).map(cells), room - whole);
      widths = shown.map((index) => (deciding(index) ? cells(index) : (cut.shift() ?? 0)));
    } else widths = capWidths(widths, room);
  }
  // The last column has no neighbour to keep aligned: a left-aligned one may run to the terminal's edge.
  const lastIndex = shown[shown.length - 1];
  if (widths.length > 0 && lastIndex !== undefined && !rightHeadings.has(lastIndex)) {
    const others = widths.slice(0, -1).reduce((sum, cells) => sum + cells + GAP.length, 0);
    widths[widths.length - 1] =
      width === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(widths[widths.length - 1] ?? 0, width - others);
  }
  return { shown, widths, inUtc, rightHeadings, cut: width !== undefined };
}

/** Widths that add up to at most `room`: the widest columns are cut first, to a common cap (1 at least). */
function capWidths(natural: number[], room: number): number[] {
  const total = (cap: number) => natural.reduce((sum, cells) => sum + Math.min(cells, cap), 0);
  let cap = Math.max(1, ...natural);
  while (cap > 1 && total(cap) > room) cap -= 1;
  // What is left below the next cap goes to the cut columns, left to right.
  let spare = room - total(cap);
  return natural.map((cells) => (cells > cap && spare-- > 0 ? cap + 1 : Math.min(cells, cap)));
}

function wrapWords(text: string, width: number): string[] {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines[lines.length - 1] as string;
    if (line && displayWidth(line) + 1 + displayWidth(word) > width) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines;
}

/** A cell's text cut to its column and the spaces that align it: [before, text, after]. */
function alignCell(
  text: string,
  width: number,
  cut: boolean,
  right: boolean,
  last: boolean,
): [string, string, string] {
  const shown = cut && Number.isFinite(width) ? truncateToWidth(text, width) : text;
  const room = Number.isFinite(width) ? Math.max(0, width - displayWidth(shown)) : 0;
  if (right) return [' '.repeat(room), shown, ''];
  return ['', shown, last ? '' : ' '.repeat(room)];
}

function headerLine(columns: readonly string[], layout: Layout, options: RenderOptions): string {
  const cells = layout.shown.map((index, at) => {
    const last = at === layout.shown.length - 1;
    const [before, text, after] = alignCell(
      headingOf(columns, index, layout.inUtc, options),
      layout.widths[at] ?? 0,
      true,
      layout.rightHeadings.has(index),
      last,
    );
    return before + (options.color ? BOLD_ON + text + BOLD_OFF : text) + after;
  });
  return `${cells.join(GAP).trimEnd()}\n`;
}

function rowLine(cells: TableCell[], layout: Layout): string {
  const line = layout.shown
    .map((index, at) => {
      const cell = cells[index];
      return alignCell(
        cellTextIn(cell, index, layout.inUtc),
        layout.widths[at] ?? 0,
        layout.cut,
        Boolean(cell?.alignRight),
        at === layout.shown.length - 1,
      ).join('');
    })
    .join(GAP);
  return `${line.trimEnd()}\n`;
}

// Terminal columns a (sanitized) string takes, and truncation with "…", grapheme by grapheme. The rules
// are string-width's, kept as our own code on purpose: string-width 8 costs 11-27 ms on its first
// non-ASCII string and is slower per cell; string-width 4 counts zero-width characters as a column.
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const EMOJI_GRAPHEME = /\p{Extended_Pictographic}/u;
const EMOJI_STYLE = /\p{Emoji_Presentation}|\uFE0F|\u200D|\p{Emoji_Modifier}/u;
/** Invisible format characters (zero-width space and joiners, bidi controls, BOM): no column at all. */
const ZERO_WIDTH = /\p{Cf}/u;

/** East Asian Wide and Fullwidth ranges, as is-fullwidth-code-point 3 (string-width 4) counts them. */
function isWideCodePoint(code: number): boolean {
  return (
    code >= 0x1100 &&
    (code <= 0x115f ||
      code === 0x2329 ||
      code === 0x232a ||
      (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) ||
      (code >= 0x4e00 && code <= 0xa4c6) ||
      (code >= 0xa960 && code <= 0xa97c) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) ||
      (code >= 0xff01 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1b000 && code <= 0x1b001) ||
      (code >= 0x1f200 && code <= 0x1f251) ||
      (code >= 0x20000 && code <= 0x3fffd))
  );
}

function graphemeWidth(grapheme: string): number {
  if (EMOJI_GRAPHEME.test(grapheme) && EMOJI_STYLE.test(grapheme)) return 2;
  let width = 0;
  for (const char of grapheme) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) continue;
    if (code >= 0x300 && code <= 0x36f) continue;
    if (ZERO_WIDTH.test(char)) continue;
    width += isWideCodePoint(code) ? 2 : 1;
  }
  return width;
}

export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** text cut to at most maxWidth columns, ending in "…" when something was cut; whole graphemes only. */
export function truncateToWidth(text: string, maxWidth: number): string {
  if (displayWidth(text) <= maxWidth) return text;
  if (maxWidth <= 0) return '';
  const room = maxWidth - 1; // the "…" takes one column
  let kept = '';
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = graphemeWidth(segment);
    if (width + next > room) break;
    kept += segment;
    width += next;
  }
  return `${kept}…`;
}
