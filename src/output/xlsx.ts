// xlsx: one sheet written by exceljs's streaming WorkbookWriter, whose zip turns committed rows into bytes
// as they come; cells typed so that a spreadsheet never changes them (docs/output.md, "The formats").
import { once } from 'node:events';
import { Writable } from 'node:stream';
// @ts-expect-error exceljs declares types for its whole-library entry only; this one module is the
// streaming writer alone (1.0 MB bundled, against 2.5 MB for the entry with the reader and csv).
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { ExactNumber } from '../api/exact-number.js';
import { visibleEscape } from '../text/terminal-text.js';
import { cellText, columnsFor, fieldValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { displayWidth } from './table.js';

/** The part of exceljs's streaming API used here (its types cover the whole-library entry only). */
interface SheetRow {
  font?: object;
  getCell(column: number): { font?: object };
  commit(): void;
}
interface StreamingSheet {
  /** The sheet's XML as it is made, piped into the zip's compressor (pipes[0]) once that starts it. */
  stream?: { pipes?: NodeJS.WritableStream[] };
  columns: { width: number }[];
  autoFilter?: { from: { row: number; column: number }; to: { row: number; column: number } };
  addRow(values: unknown[]): SheetRow;
  commit(): void;
}
interface StreamingWorkbook {
  addWorksheet(name: string, options: { views: object[] }): StreamingSheet;
  commit(): Promise<unknown>;
}
type WorkbookWriterClass = new (options: object) => StreamingWorkbook;

/** Excel keeps 15 significant digits of a number: more would be changed without a word. */
const EXCEL_DIGITS = 15;
/** Excel's limits: characters in a cell, in a hyperlink's address. */
const MAX_CELL_CHARS = 32_767;
const MAX_URL_CHARS = 2_079;
/** Column widths in characters: wide enough for a short header, never wider than a screen's half. */
const MIN_WIDTH = 6;
const MAX_WIDTH = 60;
// Websites that become links: exceljs keeps every link in memory until the sheet ends (they come after
// the rows in the XML), and Excel itself holds about this many in a sheet; later ones are text.
const MAX_HYPERLINKS = 65_530;
const HYPERLINK_FONT = { color: { argb: 'FF0563C1' }, underline: true };

// XML 1.0 cannot carry these and exceljs would drop them without a word: written as visible escapes.
const NOT_IN_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function xmlSafe(text: string): string {
  const safe = text.replace(NOT_IN_XML, visibleEscape);
  return safe.length > MAX_CELL_CHARS ? safe.slice(0, MAX_CELL_CHARS) : safe;
}

/** A text cell: a one-run rich text, which exceljs writes as an inline string (`t="inlineStr"`). */
function textCell(text: string): { richText: { text: string }[] } {
  return { richText: [{ text: xmlSafe(text) }] };
}

/** Significant digits of a JSON number token (`0.00120` has 3, `1.50e3` has 3, `9007199254740993` 16). */
export function significantDigits(digits: string): number {
  const mantissa = digits.replace(/^-/, '').replace(/[eE].*$/, '');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  // Trailing zeros of a whole number count ("1000" needs them); those after a point do not ("4.50").
  return (fraction === '' ? all : all.replace(/0+$/, '')).length;
}

/** A number as a number cell when Excel holds it exactly, else its digits as a text cell. */
function numberCell(digits: string): unknown {
  const value = Number(digits);
  return Number.isFinite(value) && significantDigits(digits) <= EXCEL_DIGITS ? value : textCell(digits);
}

export function cellValue(field: string, value: unknown, linkAllowed = true): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return numberCell(JSON.stringify(value));
  if (value instanceof ExactNumber) return numberCell(value.digits);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (
      linkAllowed &&
      field === 'website' &&
      /^https?:\/\/\S+$/i.test(value) &&
      value.length <= MAX_URL_CHARS
    ) {
      return { text: xmlSafe(value), hyperlink: value };
    }
    return textCell(value);
  }
  return textCell(cellText(value));
}

// Whether the stream into the zip holds a full buffer, so that it will say 'drain' once emptied. exceljs
// writes the sheet into it without looking at write()'s answer, and archiver wraps it in a readable-stream
// 2 PassThrough, which predates `writableNeedDrain`: its state is read instead.
function isBackedUp(stream: NodeJS.WritableStream): boolean {
  const state = (stream as { _writableState?: { length: number; highWaterMark: number } })._writableState;
  return state !== undefined && state.length >= state.highWaterMark;
}

const isLink = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && 'hyperlink' in value;

/** The width of a column: its widest text among the header and the rows at hand, within bounds. */
function columnWidth(header: string, values: readonly unknown[]): number {
  let widest = displayWidth(header) + 2; // room for the autofilter's button
  for (const value of values) widest = Math.max(widest, displayWidth(cellText(value)));
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + 1));
}

/** Collects the zip's bytes as they are made; take() hands over what came since the last take. */
function byteCollector() {
  let chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const take = (): Uint8Array => {
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    chunks = [];
    return bytes;
  };
  return { stream, take };
}

export function createXlsxRenderer(options: RenderOptions): Renderer {
  const fields = columnsFor(options.fields, options.defaultFields);
  const headers = fields.map((field) => options.labels?.[field] ?? field);
  const output = byteCollector();
  const workbook = new (WorkbookWriter as WorkbookWriterClass)({
    stream: output.stream,
    useStyles: true,
    // Shared strings would keep every distinct string in memory until the end: inline strings instead.
    useSharedStrings: false,
    creator: 'leadctl',
  });
  const frozenHeader = options.header ? [{ state: 'frozen', xSplit: 0, ySplit: 1 }] : [];
  const sheet = workbook.addWorksheet('leadctl', { views: frozenHeader });
  let links = 0;
  let linksLeftAsText = 0;
  /** Rows of the first page, held until the column widths are known. */
  let waiting: Record<string, unknown>[] | undefined = [];

  const writeRow = (item: Record<string, unknown>) => {
    const values = fields.map((field) => {
      const value = cellValue(field, fieldValue(item, field), links < MAX_HYPERLINKS);
      if (isLink(value)) links += 1;
      else if (field === 'website' && isLink(cellValue(field, fieldValue(item, field)))) linksLeftAsText += 1;
      return value;
    });
    const row = sheet.addRow(values);
    values.forEach((value, index) => {
      if (isLink(value)) row.getCell(index + 1).font = HYPERLINK_FONT;
    });
    row.commit();
  };

  /** Widths from the rows at hand, then the header and those rows: from here on rows go straight out. */
  const layOut = () => {
    if (waiting === undefined) return;
    const rows = waiting;
    waiting = undefined;
    sheet.columns = fields.map((field, index) => ({
      width: columnWidth(
        options.header ? (headers[index] as string) : '',
        rows.map((item) => fieldValue(item, field)),
      ),
    }));
    if (options.header) {
      const header = sheet.addRow(headers.map((name) => textCell(name)));
      header.font = { bold: true };
      header.commit();
      if (fields.length > 0) {
        sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: fields.length } };
      }
    }
    for (const item of rows) writeRow(item);
  };

  return {
    // The zip's first bytes come with the first rows: nothing to write before them.
    start: () => '',
    row(item) {
      if (waiting) waiting.push(item);
      else writeRow(item);
      return '';
    },
    async flush() {
      layOut();
      // The zip's compressor is slower than the rows come: wait for it, or they would pile up in memory.
      // One turn of the event loop first: the compressor (zlib) only runs between turns.
      await new Promise((resolve) => setImmediate(resolve));
      const compressor = sheet.stream?.pipes?.[0];
      while (compressor && isBackedUp(compressor)) await once(compressor, 'drain');
      return output.take();
    },
    async finish() {
      layOut();
      sheet.commit();
      await workbook.commit();
      return output.take();
    },
    notes: () =>
      linksLeftAsText === 0
        ? []
        : [
            `${linksLeftAsText.toLocaleString('en-US')} websites are text, not links: a sheet holds ${MAX_HYPERLINKS.toLocaleString('en-US')} links at most.`,
          ],
  };
}
