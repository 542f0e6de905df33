// -o FILE --append: rows are added to the end of FILE itself (not a partial file: the point is to
// keep what is there). The length at opening is remembered, and a run that fails or is interrupted
// truncates FILE back to it, so a nightly job never leaves half a row or a half-written set behind.
// What the file begins with is read once, for the header check (append-check.ts).
import { constants } from 'node:fs';
import { type FileHandle, open, rm, truncate } from 'node:fs/promises';
import { resolveOutputPath } from './output-path.js';
import { FileSink, type Sink } from './sinks.js';

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_RDWR } = constants;

/** Enough to hold any header line leadctl writes. */
const HEAD_BYTES = 64 * 1024;

export interface AppendFile {
  sink: Sink;
  /** The file's length when opened: where a failed run cuts it back to. */
  size: number;
  /** Its first bytes (up to 64 KB), as text. */
  head: string;
  /** Whether a non-empty file ends with a line break (a row cut short by another writer does not). */
  endsWithNewline: boolean;
  /** Cut the file back to `size`. Never throws. */
  rollback(): Promise<void>;
}

/** `target` is the -o path with its links followed, a regular file or none yet (output-path.ts). */
export async function openAppendFile(name: string, target: string, existed: boolean): Promise<AppendFile> {
  // 0644 before the umask when new, as the partial file of a plain -o; an existing file keeps its mode.
  const handle = await open(target, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW, 0o644);
  try {
    const { size } = await handle.stat();
    const head = await readAt(handle, 0, Math.min(size, HEAD_BYTES));
    const last = size === 0 ? '' : await readAt(handle, size - 1, 1);
    const file = new FileSink(handle, name);
    return {
      size,
      head,
      endsWithNewline: last === '\n',
      // Synced before it is closed: a checkpoint moved after this must never point past rows a crash lost.
      sink: {
        write: (data) => file.write(data),
        close: async () => {
          await handle.sync().catch(() => {});
          await file.close();
        },
      },
      // A file this run created goes again, as a plain -o leaves none behind.
      rollback: () => (existed ? truncate(target, size) : rm(target, { force: true })).catch(() => {}),
    };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<string> {
  if (length === 0) return '';
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString('utf8');
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
