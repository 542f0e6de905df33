// The output formats, the choice of one for a run (chooseOutputFormat, below) and the renderer contract
// they share. A renderer turns items into chunks and never writes anything itself: the command streams its
// chunks into an OutputTarget (destination.ts). Chunks are text or bytes; a renderer whose library writes
// bytes to a stream (xlsx) returns what has come so far from row() or flush(), from finish() the rest.
import { basename, extname } from 'node:path';
import { UsageError } from '../api/errors.js';

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

// Which format a run writes: docs/output.md, "The format of `-o FILE`".

/** The one list of extensions leadctl writes: a new format adds its extension here. */
export const FORMAT_BY_EXTENSION: Record<string, OutputFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  '.geojson': 'geojson',
};

/** Extensions of formats leadctl does not write: another format under such a name would mislead. */
const OTHER_FORMAT_EXTENSIONS = new Set(
  ['.xlsx', '.xls', '.xlsm', '.ods', '.geojson', '.xml', '.html', '.htm', '.yaml', '.yml', '.parquet']
    .concat(['.pdf', '.sqlite', '.db', '.gz', '.zip', '.md'])
    .filter((extension) => !(extension in FORMAT_BY_EXTENSION)),
);

const writableList = () => Object.keys(FORMAT_BY_EXTENSION).join(', ');

/** `-o json` (a format where a file belongs) and `-o leads.xlsx` (a format leadctl does not write). */
function refuseOutputName(file: string, extension: string | undefined): void {
  const name = basename(file).toLowerCase();
  if (file === name && (OUTPUT_FORMATS as readonly string[]).includes(name)) {
    throw new UsageError(
      `-o takes a file name, and "${file}" is a format: did you mean \`-f ${name}\`?`,
      `to write a file named ${file}, say -o ./${file}`,
    );
  }
  if (extension !== undefined && OTHER_FORMAT_EXTENSIONS.has(extension)) {
    throw new UsageError(
      `cannot write ${file}: leadctl does not write ${extension} files, and another format under that name would mislead`,
      `it writes ${writableList()}; for Excel: -o ${file.slice(0, -extension.length)}.xlsx`,
    );
  }
}

export interface FormatFlags {
  format?: OutputFormat;
  json?: boolean;
  csv?: boolean;
  output?: string;
}

export interface FormatChoice {
  format: OutputFormat;
  warnings: string[];
  notes: string[];
}

/** Paths the shell or the system hands over (/dev/stdout, /proc/self/fd/3): their names say nothing. */
const SYSTEM_PATH = /^\/(dev|proc)\//;

export function chooseOutputFormat(
  flags: FormatFlags,
  stored: string | undefined,
  stdoutIsTty: boolean,
): FormatChoice {
  const asked = flags.format ?? (flags.json ? 'json' : flags.csv ? 'csv' : undefined);
  const file = flags.output === undefined || flags.output === '-' ? undefined : flags.output;
  const extension = file === undefined || SYSTEM_PATH.test(file) ? undefined : extname(file).toLowerCase();
  if (file !== undefined) refuseOutputName(file, extension);
  const fromName = extension === undefined ? undefined : FORMAT_BY_EXTENSION[extension];
  if (asked) {
    const warnings =
      fromName && fromName !== asked ? [`writing ${asked} to ${file}, whose extension says ${fromName}`] : [];
    return { format: asked, warnings, notes: [] };
  }
  if (fromName) return { format: fromName, warnings: [], notes: [] };
  const format =
    stored && (OUTPUT_FORMATS as readonly string[]).includes(stored)
      ? (stored as OutputFormat)
      : stdoutIsTty
        ? 'table'
        : 'json';
  const notes =
    extension === undefined ? [] : [`Writing ${format} to ${file}: its name says no format (-f picks one).`];
  return { format, warnings: [], notes };
}
