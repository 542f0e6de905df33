// From --input to the list of searches to run: read (a file, or stdin for `-`), decode (UTF-8, or
// UTF-16 with a byte-order mark as Excel's "Unicode text" writes it; an .xlsx workbook goes to
// xlsx-input.ts), parse with --columns/--ignore-extra, validate every row, drop repeats. Any bad row
// or header refuses the whole batch here, before a request is sent.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { errorCode, reasonOf } from '../output/destination.js';
import { safeForStderr } from '../ui/ui.js';
import {
  type ColumnRules,
  DEFAULT_RULES,
  HeaderError,
  type ParsedInput,
  parseBatchInput,
  parseColumnsFlag,
  parseRecords,
} from './input-parse.js';
import { dedupeRows, formatProblems, inputFingerprint, type SearchRow, validateEntries } from './validate.js';

/** The flags that say how to read the input (SearchFlags has them). */
export interface InputFlags {
  columns?: string | undefined;
  ignoreExtra?: boolean | undefined;
}

export interface BatchPlan {
  /** The searches to run, in input order, repeats removed. */
  unique: SearchRow[];
  /** Rows skipped because they repeat an earlier one. */
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
  },
): Promise<BatchPlan> {
  const source = input === '-' ? 'standard input' : input;
  const rules: ColumnRules = {
    mapped: parseColumnsFlag(flags.columns),
    ignoreExtra: Boolean(flags.ignoreExtra),
  };
  const bytes = await readInputBytes(input, ctx.io.stdin);
  const parsed = await withSource(source, async () =>
    isZip(bytes)
      ? parseRecords(await (await import('./xlsx-input.js')).readXlsxRecords(bytes, source), rules, 'xlsx')
      : parseBatchInput(decodeInput(bytes, source), rules),
  );
  if (parsed.ignored.length > 0 && !ctx.globals.quiet) {
    const n = parsed.ignored.length;
    const names = parsed.ignored.map((name) => JSON.stringify(name)).join(', ');
    ctx.io.stderr.write(
      `${safeForStderr(`Ignoring ${n === 1 ? 'a column' : `${n} columns`} of ${source}, as --ignore-extra asks: ${names}.`)}\n`,
    );
  }
  const words = [
    ...(flags.columns === undefined ? [] : ['--columns', flags.columns]),
    ...(flags.ignoreExtra ? ['--ignore-extra'] : []),
  ];
  return planParsed(parsed, source, words);
}

/** A header problem names the input it was found in, and that nothing was sent. */
async function withSource<T>(source: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw namedHeaderError(error, source);
  }
}

function namedHeaderError(error: unknown, source: string): unknown {
  if (!(error instanceof HeaderError)) return error;
  return new UsageError(`${source}: ${error.message}; nothing was searched`, error.hint);
}

/** An .xlsx (or any zip) starts with a zip's local file header. */
function isZip(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
}

const OLD_EXCEL = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const SAVE_AS_UTF8 =
  'in Excel: File > Save As > "CSV UTF-8 (Comma delimited)"; or: iconv -f windows-1252 -t utf-8 in.csv > in-utf8.csv';

/**
 * The input's text: UTF-8 (a byte-order mark is skipped), or UTF-16 LE/BE with its byte-order mark.
 * Anything else is refused, naming the fix: an old .xls workbook, UTF-16 without a mark, or bytes
 * that are not UTF-8 (Windows-1252 from an old Excel).
 */
export function decodeInput(bytes: Buffer, source: string): string {
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (utf16) {
    try {
      return new TextDecoder(utf16, { fatal: true }).decode(bytes);
    } catch {
      throw new UsageError(
        `${source} is not valid ${utf16.toUpperCase()} text; nothing was searched`,
        SAVE_AS_UTF8,
      );
    }
  }
  if (bytes.subarray(0, OLD_EXCEL.length).equals(OLD_EXCEL)) {
    throw new UsageError(
      `${source} is an old Excel .xls workbook, which leadctl does not read; nothing was searched`,
      'save it as .xlsx, or as "CSV UTF-8 (Comma delimited)"',
    );
  }
  // NUL bytes are valid UTF-8 but never in a CSV: this is UTF-16 without its mark, or not text.
  if (bytes.includes(0)) {
    throw new UsageError(
      `${source} is not UTF-8 text (it holds NUL bytes: UTF-16 without a byte-order mark?); nothing was searched`,
      'in Excel: File > Save As > "CSV UTF-8 (Comma delimited)"; or: iconv -f utf-16le -t utf-8 in.txt > in.csv',
    );
  }
  return decodeUtf8(bytes, source);
}

const READ_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

async function readInputBytes(input: string, stdin: NodeJS.ReadableStream): Promise<Buffer> {
  let bytes: Buffer;
  if (input === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    bytes = Buffer.concat(chunks);
  } else {
    try {
      bytes = await readFile(input);
    } catch (error) {
      const code = errorCode(error);
      throw new UsageError(`cannot read ${input}: ${(code && READ_REASONS[code]) ?? reasonOf(error)}`);
    }
  }
  return bytes;
}

/**
 * Decoding with replacement characters would send mangled searches ("Montr�al") and spend quota on
 * them, so text that is not UTF-8 is refused before any request.
 */
export function decodeUtf8(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const line = firstBadLine(bytes);
    throw new UsageError(`${source} is not UTF-8 text (line ${line}); nothing was searched`, SAVE_AS_UTF8);
  }
}

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

export function planBatch(text: string, source: string, rules: ColumnRules = DEFAULT_RULES): BatchPlan {
  let parsed: ParsedInput;
  try {
    parsed = parseBatchInput(text, rules);
  } catch (error) {
    throw namedHeaderError(error, source);
  }
  return planParsed(parsed, source, []);
}

function planParsed(parsed: ParsedInput, source: string, inputWords: string[]): BatchPlan {
  const { rows, problems } = validateEntries(parsed.entries);
  const allProblems = [...parsed.problems, ...problems];
  if (allProblems.length > 0) {
    const n = allProblems.length;
    // One error, many lines: the first says what happened, the rest list the rows (at most 20).
    const message = `${source} has ${n} bad ${n === 1 ? 'row' : 'rows'}; nothing was searched\n${formatProblems(allProblems).join('\n')}`;
    throw new UsageError(message, INPUT_HINT);
  }
  if (rows.length === 0) throw new UsageError(`${source} has no searches in it`, INPUT_HINT);
  const { unique, duplicates } = dedupeRows(rows);
  return { unique, duplicates: duplicates.length, fingerprint: inputFingerprint(unique), inputWords };
}
