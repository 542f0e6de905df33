// From --input to the searches to run, read as a stream under ceilings on bytes and rows, each row
// validated and deduped as it comes; only the unique searches and their keys are held. A bad row or
// header refuses the whole batch before a request is sent (docs/batch.md, "Ceilings").
import { createHash } from 'node:crypto';
import { createReadStream, constants as fs, openSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { addAbortSignal, type Readable } from 'node:stream';
import { LeadError, UsageError } from '../api/errors.js';
import { describeBytes } from '../api/parse-response.js';
import { errorCode, reasonOf } from '../output/destination.js';
import { formatCount, safeForStderr } from '../ui/ui.js';
import { type CsvRecord, csvRecords, detectDelimiter, MAX_RECORD_CHARS } from './csv-records.js';
import {
  type ColumnRules,
  entriesFromJsonLines,
  entriesFromRecords,
  HeaderError,
  type InputProblem,
  type InputRow,
  parseColumnsFlag,
} from './input-parse.js';
import {
  fingerprintLine,
  formatProblems,
  MAX_LISTED_PROBLEMS,
  type SearchRow,
  searchKey,
  validateEntry,
} from './validate.js';

/** Ceilings of a batch's input, raised by --max-input-rows and --max-input-bytes. */
export const DEFAULT_MAX_INPUT_ROWS = 50_000;
export const DEFAULT_MAX_INPUT_BYTES = 64 * 2 ** 20;

/** How to read the input (SearchFlags has them). */
export interface InputFlags {
  columns?: string | undefined;
  ignoreExtra?: boolean | undefined;
  maxInputRows?: number | undefined;
  maxInputBytes?: number | undefined;
}

export interface BatchPlan {
  /** The searches to run, in input order, repeats removed (empty when read for a dry run). */
  unique: SearchRow[];
  searches: number;
  /** Rows that repeat an earlier one. */
  duplicates: number;
  fingerprint: string;
  /** --columns and --ignore-extra as given: a --resume must read the input the same way. */
  inputWords: string[];
}

const INPUT_HINT =
  'the input is CSV with a header row (query,location[,radius]), an .xlsx workbook, or JSON lines ({"query": "...", "location": "..."})';

/** Reads, parses and checks --input; says on stderr which columns --ignore-extra skipped. */
export async function loadBatchPlan(
  input: string,
  flags: InputFlags,
  ctx: {
    io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream };
    globals: { quiet?: boolean | undefined };
    signal: AbortSignal;
  },
  { keepRows = true } = {},
): Promise<BatchPlan> {
  const source = input === '-' ? 'standard input' : input;
  const rules: ColumnRules = {
    mapped: parseColumnsFlag(flags.columns),
    ignoreExtra: Boolean(flags.ignoreExtra),
  };
  const maxRows = flags.maxInputRows ?? DEFAULT_MAX_INPUT_ROWS;
  const maxBytes = flags.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const ignored = new Set<string>();
  const plan = planBuilder(keepRows);
  try {
    const chunks = inputChunks(input, ctx.io.stdin, ctx.signal, maxBytes, source);
    for await (const rows of inputRows(chunks, source, rules, ignored, maxBytes, ctx.signal)) {
      for (const row of rows) {
        if (plan.add(row) > maxRows) {
          throw new UsageError(
            `${source} has more than ${formatCount(maxRows)} rows, the batch input ceiling; nothing was searched (raise it with --max-input-rows)`,
          );
        }
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (!(error instanceof HeaderError)) throw error;
    throw new UsageError(`${source}: ${error.message}; nothing was searched`, error.hint);
  }
  if (ignored.size > 0 && !ctx.globals.quiet) {
    const n = ignored.size;
    const names = [...ignored].map((name) => JSON.stringify(name)).join(', ');
    ctx.io.stderr.write(
      `${safeForStderr(`Ignoring ${n === 1 ? 'a column' : `${n} columns`} of ${source}, as --ignore-extra asks: ${names}.`)}\n`,
    );
  }
  const words = [
    ...(flags.columns === undefined ? [] : ['--columns', flags.columns]),
    ...(flags.ignoreExtra ? ['--ignore-extra'] : []),
  ];
  return plan.finish(source, words);
}

// The rows as they are read: validated, repeats counted, the unique searches kept (with `keepRows`) and
// fingerprinted. After the first bad row nothing more is kept: the batch will not run.
function planBuilder(keepRows: boolean) {
  const keys = new Set<string>();
  const fingerprint = createHash('sha256');
  const unique: SearchRow[] = [];
  const problems: InputProblem[] = [];
  let rows = 0;
  let searches = 0;
  let duplicates = 0;
  let bad = 0;
  return {
    /** Takes one row; returns how many have come. */
    add(row: InputRow): number {
      rows += 1;
      const checked = 'message' in row ? row : validateEntry(row);
      if ('message' in checked) {
        bad += 1;
        if (problems.length < MAX_LISTED_PROBLEMS) problems.push(checked);
      } else if (bad === 0) {
        const key = searchKey(checked);
        if (keys.has(key)) duplicates += 1;
        else {
          keys.add(key);
          fingerprint.update(fingerprintLine(checked));
          searches += 1;
          if (keepRows) unique.push(checked);
        }
      }
      return rows;
    },
    finish(source: string, inputWords: string[]): BatchPlan {
      if (bad > 0) {
        // One error, many lines: the first says what happened, the rest list the rows (at most 20).
        const message = `${source} has ${bad} bad ${bad === 1 ? 'row' : 'rows'}; nothing was searched\n${formatProblems(problems, bad).join('\n')}`;
        throw new UsageError(message, INPUT_HINT);
      }
      if (searches === 0) throw new UsageError(`${source} has no searches in it`, INPUT_HINT);
      return { unique, searches, duplicates, fingerprint: fingerprint.digest('hex'), inputWords };
    },
  };
}

/** The input's rows in batches, whatever its kind: a workbook (known by its content), JSON lines, or CSV. */
export async function* inputRows(
  chunks: AsyncIterable<Buffer>,
  source: string,
  rules: ColumnRules,
  ignored: Set<string>,
  maxBytes: number,
  signal: AbortSignal,
): AsyncGenerator<InputRow[]> {
  const { head, bytes } = await peekHead(chunks);
  if (head.subarray(0, 4).equals(ZIP)) {
    const workbook: Buffer[] = [];
    for await (const chunk of bytes.all) workbook.push(chunk);
    const { xlsxRecords } = await import('./xlsx-input.js');
    const records = xlsxRecords(Buffer.concat(workbook), source, maxBytes, signal);
    yield* entriesFromRecords(records, rules, 'xlsx', ignored);
    return;
  }
  const texts = await peekText(bytes.all, head, source);
  const text = texts.read.join('');
  if (text.trimStart().startsWith('{')) yield* entriesFromJsonLines(texts.all, rules, ignored);
  else
    yield* entriesFromRecords(csvRecords(texts.all, detectDelimiter(text).delimiter), rules, 'csv', ignored);
}

// The text up to the end of its first line that is not blank (or a row's most): the first
// character there decides (`{` means JSON lines, anything else CSV), and a CSV's separator.
function peekText(bytes: AsyncIterable<Buffer>, head: Buffer, source: string) {
  return peek(decodeText(bytes, head, source), (read) => {
    const text = read.join('');
    return text.length >= MAX_RECORD_CHARS || detectDelimiter(text).complete;
  });
}

/**
 * `--exclude`'s file, read as --input's CSV is (the byte ceiling, its encodings and separators), unless
 * `isDatabase` knows its first chunk: then nothing more is read.
 */
export async function* excludeFileRecords(
  path: string,
  maxBytes: number,
  signal: AbortSignal,
  isDatabase: (head: Buffer) => boolean,
): AsyncGenerator<CsvRecord[] | 'database'> {
  const source = `--exclude ${path}`;
  const chunks = inputChunks(path, undefined, signal, maxBytes, source, 'the --exclude ceiling');
  const { head, bytes } = await peekHead(chunks);
  if (isDatabase(head)) {
    await chunks.return(undefined);
    yield 'database';
    return;
  }
  const texts = await peekText(bytes.all, head, source);
  yield* csvRecords(texts.all, detectDelimiter(texts.read.join('')).delimiter);
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLD_EXCEL = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The first bytes, enough for a format's magic number (a SQLite file's is 16), and every chunk again. */
async function peekHead(chunks: AsyncIterable<Buffer>) {
  const bytes = await peek(chunks, (read) => Buffer.concat(read).length >= 16);
  return { head: Buffer.concat(bytes.read), bytes };
}

/** The items read until `enough` (or the end), and every item again from the start. */
async function peek<T>(items: AsyncIterable<T>, enough: (read: T[]) => boolean) {
  const iterator = items[Symbol.asyncIterator]();
  const read: T[] = [];
  while (!enough(read)) {
    const next = await iterator.next();
    if (next.done) break;
    read.push(next.value);
  }
  async function* all() {
    yield* read;
    yield* { [Symbol.asyncIterator]: () => iterator };
  }
  return { read, all: all() };
}

/** The input's bytes as they come, never more than `maxBytes`; the run's abort signal ends the read. */
async function* inputChunks(
  input: string,
  stdin: NodeJS.ReadableStream | undefined,
  signal: AbortSignal,
  maxBytes: number,
  source: string,
  ceiling = 'the batch input ceiling',
): AsyncGenerator<Buffer> {
  let stream: Readable | undefined;
  let total = 0;
  try {
    stream = addAbortSignal(
      signal,
      stdin && input === '-' ? (stdin as Readable) : await openForReading(input),
    );
    for await (const chunk of stream) {
      const bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += bytes.length;
      if (total > maxBytes) {
        throw new UsageError(
          `${source} is larger than ${describeBytes(maxBytes)}, ${ceiling}; nothing was searched (raise it with --max-input-bytes)`,
        );
      }
      yield bytes;
    }
  } catch (error) {
    if (signal.aborted || error instanceof LeadError) throw error;
    throw new UsageError(
      `cannot read ${source}: ${errorCode(error) === 'ENOENT' ? 'no such file' : reasonOf(error)}`,
    );
  } finally {
    stream?.destroy();
  }
}

// A file, or a FIFO read as a pipe is (polled, not a thread blocked in read(2)): a signal stops the read
// at once even when the writer sends nothing, and nothing is left to keep the process alive.
async function openForReading(path: string): Promise<Readable> {
  const info = await stat(path);
  if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  if (!info.isFIFO()) return createReadStream(path, { highWaterMark: 16384 });
  return new Socket({ fd: openSync(path, fs.O_RDONLY | fs.O_NONBLOCK), readable: true, writable: false });
}

const SAVE_AS_UTF8 =
  'in Excel: File > Save As > "CSV UTF-8 (Comma delimited)"; or: iconv -f windows-1252 -t utf-8 in.csv > in-utf8.csv';

// The input's text, chunk by chunk: UTF-8 (a byte-order mark is skipped), or UTF-16 LE/BE with its
// byte-order mark. Anything else is refused as soon as it is seen, naming the fix: an old .xls workbook,
// UTF-16 without a mark, or bytes that are not UTF-8 (Windows-1252 from an old Excel). Decoded with
// replacement characters, a batch would spend quota on "Montr�al".
async function* decodeText(
  chunks: AsyncIterable<Buffer>,
  head: Buffer,
  source: string,
): AsyncGenerator<string> {
  const utf16 =
    head[0] === 0xff && head[1] === 0xfe
      ? 'utf-16le'
      : head[0] === 0xfe && head[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (!utf16 && head.subarray(0, OLD_EXCEL.length).equals(OLD_EXCEL)) {
    throw new UsageError(
      `${source} is an old Excel .xls workbook, which leadctl does not read; nothing was searched`,
      'save it as .xlsx, or as "CSV UTF-8 (Comma delimited)"',
    );
  }
  const decoder = new TextDecoder(utf16 ?? 'utf-8', { fatal: true });
  let linesBefore = 0;
  let tail: Buffer = Buffer.alloc(0);
  const notText = (bytes: Buffer) =>
    utf16
      ? new UsageError(
          `${source} is not valid ${utf16.toUpperCase()} text; nothing was searched`,
          SAVE_AS_UTF8,
        )
      : notUtf8(source, linesBefore + firstBadLine(Buffer.concat([tail, bytes])));
  for await (const chunk of chunks) {
    // NUL bytes are valid UTF-8 but never in a CSV: this is UTF-16 without its mark, or not text.
    if (!utf16 && chunk.includes(0)) {
      throw new UsageError(
        `${source} is not UTF-8 text (it holds NUL bytes: UTF-16 without a byte-order mark?); nothing was searched (save it as "CSV UTF-8", or: iconv -f utf-16le -t utf-8 in.txt > in.csv)`,
      );
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notText(chunk);
    }
    if (!utf16) {
      linesBefore += countLineFeeds(chunk);
      tail = incompleteTail(chunk);
    }
    if (text !== '') yield text;
  }
  try {
    const text = decoder.decode();
    if (text !== '') yield text;
  } catch {
    throw notText(Buffer.alloc(0));
  }
}

function notUtf8(source: string, line: number): UsageError {
  return new UsageError(`${source} is not UTF-8 text (line ${line}); nothing was searched`, SAVE_AS_UTF8);
}

function countLineFeeds(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

/** The last bytes of a character the chunk only begins (up to 3): the next chunk ends it. */
function incompleteTail(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if (byte < 0x80) break;
    if (byte >= 0xc0)
      return (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) > back ? bytes.subarray(-back) : Buffer.alloc(0);
  }
  return Buffer.alloc(0);
}

/** The 1-based line of `bytes` that holds the first byte that is not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  const strict = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      strict.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end === -1) break;
    start = end + 1;
    line += 1;
  }
  return line;
}
