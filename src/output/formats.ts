// The renderer contract shared by every output format. A renderer turns items into chunks and never
// writes anything itself: the command streams its chunks into an OutputTarget (target.ts).
//
// Chunks are text or bytes. A renderer whose library writes bytes to a stream as it goes (exceljs's
// streaming WorkbookWriter for xlsx) hands the library a Writable that keeps what it is given,
// returns what has come so far from row() or flush() ('' or an empty Uint8Array when nothing has),
// and from finish() a promise of the rest once the library is done (`await workbook.commit()`).
// The writers await finish(); nothing else changes for a byte-producing format.

/** What a renderer hands over and a target writes: text (UTF-8 on the way out) or bytes. */
export type Chunk = string | Uint8Array;

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv', 'xlsx', 'geojson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderOptions {
  format: OutputFormat;
  /** Explicit --fields: columns / keys in this order. undefined = the format's defaults. */
  fields?: string[];
  /** Every field of the resource in spec order (csv/tsv default columns). */
  defaultFields: readonly string[];
  /** The readable subset a table shows by default. */
  tableFields: readonly string[];
  /** false with --no-header (csv, tsv, table). */
  header: boolean;
  /** csv formula guard; false with --no-sanitize. */
  sanitize: boolean;
  /** Table header may be bold; false off a terminal or with NO_COLOR / --no-color. */
  color: boolean;
  /** Terminal columns the table must fit in; undefined = no limit. */
  width?: number;
  /** json on a terminal: indented for a person (colour as `color` says); piped json stays compact. */
  pretty?: boolean;
  /** Written to a terminal: csv, json and ndjson escape control characters too (table and tsv always do). */
  terminal?: boolean;
  /** csv, tsv: a UTF-8 byte-order mark before the header, for Excel (--bom). */
  bom?: boolean;
  /** Column names for --fields renames (`name:Company`): field -> name; a field not in it keeps its own. */
  labels?: Record<string, string>;
}

export interface Renderer {
  /** Chunk to write first (json: "[", csv/tsv: the header line, others: ""). */
  start(): Chunk;
  /** Chunk for one item ("" for a table's first rows, held back until its columns are laid out). */
  row(item: Record<string, unknown>): Chunk;
  /** The end of a batch of rows (a page): a table lays out its columns from them and writes them. */
  flush?(): Chunk | Promise<Chunk>;
  /** Closing chunk (json: "]\n", table: rows still held back, "" when it has no rows); may wait for a library. */
  finish(): Chunk | Promise<Chunk>;
  /** After finish(): what a person should know about the output (table: columns hidden to fit). */
  notes?(): string[];
}

/** A renderer of text (every format but the byte-producing ones): its chunks are strings. */
export interface TextRenderer extends Renderer {
  start(): string;
  row(item: Record<string, unknown>): string;
  flush?(): string;
  finish(): string;
}

/** U+FEFF as the first character: Excel then reads the file as UTF-8 rather than the ANSI code page. */
export const BYTE_ORDER_MARK = '\ufeff';

/** A chunk as bytes (text as UTF-8). */
export const chunkBytes = (chunk: Chunk): Uint8Array =>
  typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;

/** Chunks as one write: joined text when all are text, else their bytes. */
export function joinChunks(chunks: readonly Chunk[]): Chunk {
  return chunks.every((chunk) => typeof chunk === 'string')
    ? chunks.join('')
    : Buffer.concat(chunks.map(chunkBytes));
}

/** A chunk read as text (a header line, to compare with a file's first line). */
export const chunkText = (chunk: Chunk): string =>
  typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
