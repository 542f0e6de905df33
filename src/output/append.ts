// Adding to a file that is already there: --append's rules (only line formats, the same header, a
// complete last line), opening FILE for it with a way back to its first length, the undo point of a
// run whose checkpoint could not be moved, and --resume's check of a stopped batch's partial file.
// target.ts opens through these and does the writing.
import type { Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rm, truncate } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { reasonOf, resolveOutputPath } from './destination.js';
import type { OutputFormat } from './formats.js';

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_RDWR } = constants;

/** What FILE held when --append opened it. */
export interface AppendingTo {
  /** The file's length when opened: where a failed run cuts it back to. */
  size: number;
  /** Its first bytes (up to 64 KB), as text: enough to hold any header line leadctl writes. */
  head: string;
  /** Whether a non-empty file ends with a line break (a row cut short by another writer does not). */
  endsWithNewline: boolean;
}

const HEAD_BYTES = 64 * 1024;

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
 * --append: rows are added to the end of FILE itself (the point is to keep what is there). The
 * length at opening is remembered, and `rollback` (for a run that fails or is interrupted) truncates
 * FILE back to it; a file this run created goes again, as a plain -o leaves none behind. `target` is
 * the -o path with its links followed, a regular file or none yet.
 */
export async function openForAppend(
  target: string,
  existed: boolean,
): Promise<{ handle: FileHandle; appendingTo: AppendingTo; rollback: () => Promise<void> }> {
  // 0644 before the umask when new, as the partial file of a plain -o; an existing file keeps its mode.
  const handle = await open(target, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW, 0o644);
  try {
    const { size } = await handle.stat();
    const readAt = async (position: number, length: number) => {
      if (length === 0) return '';
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead).toString('utf8');
    };
    const head = await readAt(0, Math.min(size, HEAD_BYTES));
    const endsWithNewline = size > 0 && (await readAt(size - 1, 1)) === '\n';
    return {
      handle,
      appendingTo: { size, head, endsWithNewline },
      rollback: () => (existed ? truncate(target, size) : rm(target, { force: true })).catch(() => {}),
    };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
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
 * `sha256`. What came after (half a row, json's closing `]`) is cut off. `file` is the -o name.
 */
export async function reopenStoppedPartial(
  file: string,
  { partial, bytes, sha256 }: { partial: string; bytes: number; sha256: string },
): Promise<{ handle: FileHandle; hash: Hash }> {
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
    if (info.size < bytes) {
      throw new UsageError(
        `cannot resume: ${partial} is ${info.size} bytes, shorter than the ${bytes} the stopped run wrote`,
        startOver,
      );
    }
    const hash = await hashPrefix(handle, bytes);
    if (hash.copy().digest('hex') !== sha256) {
      throw new UsageError(
        `cannot resume: ${partial} does not hold what the stopped run wrote (it was changed since)`,
        startOver,
      );
    }
    await handle.truncate(bytes);
    return { handle, hash };
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
