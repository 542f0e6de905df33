// Adding to a file that is already there: --append's rules (only line formats, the same header, a
// complete last line), the undo point of a run whose checkpoint could not be moved, and --resume's
// reopening of a stopped batch's partial file. Opening and writing go through target.ts.
import type { Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rm, truncate } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import type { OutputFormat } from './formats.js';
import {
  type AppendingTo,
  BufferedTarget,
  fileSink,
  type OutputTarget,
  reasonOf,
  resolveOutputPath,
} from './target.js';

const APPENDABLE: readonly OutputFormat[] = ['csv', 'tsv', 'ndjson'];

/** Only line formats can grow by adding lines. */
export function assertAppendable(format: OutputFormat): void {
  if (!APPENDABLE.includes(format)) {
    throw new UsageError(
      `--append works with csv, tsv and ndjson, not ${format}`,
      'add --csv, or -f tsv|ndjson',
    );
  }
}

/**
 * Whether the file already begins with `opening` (the header line this run would write), so it must
 * not be written again. An empty file gets it; a file that begins otherwise is refused (the new rows
 * would sit under the wrong header), and so is one whose last line is cut off (the first new row
 * would join it).
 */
export function headerAlreadyWritten(file: string, existing: AppendingTo, opening: string): boolean {
  if (existing.size === 0) return false;
  if (!existing.endsWithNewline) {
    throw new UsageError(
      `cannot append to ${file}: its last line is not complete (no line break at the end)`,
    );
  }
  if (opening === '' || existing.head.startsWith(opening)) return true;
  const firstLine = existing.head.split(/\r?\n/, 1)[0] ?? '';
  throw new UsageError(
    `cannot append to ${file}: its header (${firstLine.slice(0, 200)}) differs from the columns this run writes (${opening.trimEnd()})`,
    'use the --fields (and --no-header) the file was written with, or write to a new file',
  );
}

/**
 * The -o file's length now, and how to cut it back to it: for a run whose output is committed but
 * whose checkpoint then could not be moved (its rename failed), so that the next run, which fetches
 * the same items again, does not append them twice. `file` is the -o name; links are followed.
 */
export async function appendUndoPoint(file: string): Promise<() => Promise<void>> {
  const where = await resolveOutputPath(file);
  if (where.kind !== 'file') return async () => {};
  const { target, existing } = where;
  return () => (existing ? truncate(target, existing.size) : rm(target, { force: true })).catch(() => {});
}

/**
 * A stopped batch's partial file, reopened for appending once it is shown to hold what the state
 * file says: a regular file (never a link), at least `bytes` long, whose first `bytes` hash to
 * `sha256`. What came after (half a row, json's closing `]`) is cut off. The target counts and
 * hashes on from there, and is renamed over `target` on commit like any partial file.
 */
export async function reopenPartialOutput(
  file: string,
  target: string,
  partial: string,
  expected: { bytes: number; sha256: string },
): Promise<OutputTarget> {
  const { O_RDWR, O_APPEND, O_NOFOLLOW } = constants;
  const startOver = `start the batch over: delete ${file}.state and ${partial}`;
  let handle: FileHandle;
  try {
    handle = await open(partial, O_RDWR | O_APPEND | O_NOFOLLOW);
  } catch (error) {
    throw new UsageError(`cannot resume: cannot open ${partial}: ${reasonOf(error)}`, startOver);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`cannot resume: ${partial} is not a regular file`, startOver);
    if (info.size < expected.bytes) {
      throw new UsageError(
        `cannot resume: ${partial} is ${info.size} bytes, shorter than the ${expected.bytes} the stopped run wrote`,
        startOver,
      );
    }
    const hash = await hashPrefix(handle, expected.bytes);
    if (hash.copy().digest('hex') !== expected.sha256) {
      throw new UsageError(
        `cannot resume: ${partial} does not hold what the stopped run wrote (it was changed since)`,
        startOver,
      );
    }
    await handle.truncate(expected.bytes);
    return new BufferedTarget(fileSink(handle, partial), 0, {
      partial: { path: partial, renameTo: target, name: file },
      hash,
      bytes: expected.bytes,
    });
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

async function hashPrefix(handle: FileHandle, length: number): Promise<Hash> {
  const hash = (await import('node:crypto')).createHash('sha256');
  const buffer = Buffer.alloc(Math.min(length, 1 << 20) || 1);
  let position = 0;
  while (position < length) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, length - position), position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash;
}
