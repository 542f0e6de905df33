// The renderer contract shared by every output format. A renderer turns items into text chunks and
// never writes anything itself: the command streams its chunks into an OutputTarget (writer.ts).

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
  /** `--fields name:Company` renames: field -> column name (header cells, json keys, geojson properties). */
  labels?: Record<string, string>;
}

/** What a renderer hands the writer: text (written as UTF-8), or bytes for a binary format (xlsx). */
export type Chunk = string | Uint8Array;

export interface Renderer {
  /** Chunk to write first (json: "[", csv/tsv: the header line, others: ""). */
  start(): string;
  /** Chunk for one item ("" for a table's first rows, held back until its columns are laid out). */
  row(item: Record<string, unknown>): string;
  /** The end of a batch of rows (a page): a table lays out its columns from them and writes them. */
  flush?(): Chunk | Promise<Chunk>;
  /** Closing chunk (json: "]\n", table: rows still held back, "" when it has no rows). */
  finish(): Chunk | Promise<Chunk>;
  /** After finish(): what a person should know about the output (table: columns hidden to fit). */
  notes?(): string[];
}

/** U+FEFF as the first character: Excel then reads the file as UTF-8 rather than the ANSI code page. */
export const BYTE_ORDER_MARK = '\ufeff';
