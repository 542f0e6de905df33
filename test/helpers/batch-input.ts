// A batch input read in-process as leadctl reads it, from a stream of small chunks (so that every
// rule is also checked across chunk boundaries: a line, a quoted field, a UTF-8 character split).
import { PassThrough, Readable } from 'node:stream';
import type { ColumnRules, InputRow, RawEntry } from '../../src/batch/input-parse.js';
import { type InputFlags, inputRows, loadBatchPlan } from '../../src/batch/load-input.js';

/** `bytes` as a stream of chunks of `size` bytes. */
export function chunked(bytes: string | Buffer, size = 3): Readable {
  const all = Buffer.from(bytes);
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += size) chunks.push(all.subarray(at, at + size));
  return Readable.from(chunks);
}

/** The plan a batch would run, from `input` on stdin. */
export function planOf(
  input: string | Buffer | Readable,
  flags: InputFlags = {},
  options: { keepRows?: boolean; signal?: AbortSignal } = {},
) {
  const stdin = input instanceof Readable ? input : chunked(input);
  const io = { stdin, stderr: new PassThrough() };
  const signal = options.signal ?? new AbortController().signal;
  return loadBatchPlan('-', flags, { io, globals: {}, signal }, { keepRows: options.keepRows ?? true });
}

/** The entries and problems of a text, as read before validation. */
export async function parsed(
  text: string | Buffer,
  rules: ColumnRules = { mapped: new Map(), ignoreExtra: false },
) {
  const ignored = new Set<string>();
  const rows: InputRow[] = [];
  const chunks = chunked(text) as AsyncIterable<Buffer>;
  for await (const batch of inputRows(
    chunks,
    'in.csv',
    rules,
    ignored,
    2 ** 30,
    new AbortController().signal,
  )) {
    rows.push(...batch);
  }
  return {
    entries: rows.filter((row): row is RawEntry => 'values' in row),
    problems: rows.filter((row) => 'message' in row),
    ignored: [...ignored],
  };
}
