// From --input to the list of searches to run: read (a file, or stdin for `-`), parse, validate every
// row, drop repeats. Any bad row refuses the whole batch here, before a request is sent.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { errorCode, reasonOf } from '../output/destination.js';
import { dedupeRows, inputFingerprint } from './dedupe.js';
import { parseBatchInput } from './input-parse.js';
import { formatProblems, type SearchRow, validateEntries } from './validate.js';

export interface BatchPlan {
  /** The searches to run, in input order, repeats removed. */
  unique: SearchRow[];
  /** Rows skipped because they repeat an earlier one. */
  duplicates: number;
  fingerprint: string;
}

const INPUT_HINT =
  'the input is CSV with a header row (query,location[,radius]) or JSON lines ({"query": "...", "location": "..."})';

const READ_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The input as text; bytes that are not UTF-8 (a Latin-1 export) refuse it, naming the line. */
export async function readInputText(input: string, stdin: NodeJS.ReadableStream): Promise<string> {
  const source = input === '-' ? 'standard input' : input;
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
  return decodeUtf8(bytes, source);
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
    throw new UsageError(
      `${source} is not UTF-8 text (line ${line}); nothing was searched`,
      'save it as UTF-8, e.g.: iconv -f latin1 -t utf-8 in.csv > in-utf8.csv',
    );
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

export function planBatch(text: string, source: string): BatchPlan {
  const parsed = parseBatchInput(text);
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
  return { unique, duplicates: duplicates.length, fingerprint: inputFingerprint(unique) };
}
