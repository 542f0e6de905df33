// The batch's output. Like the shared writer it writes -o FILE through a partial file renamed over
// FILE on success (or writes a FIFO or device directly), but it also counts and hashes the bytes it
// has written, which the state file records, and can reopen a stopped run's partial file, checked
// against that record and cut back to the last fully written search, to append to it.
import { createHash, type Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import type { Chunk } from '../output/formats.js';
import { createPartialFile } from '../output/partial-file.js';
import { FileSink, type Sink } from '../output/sinks.js';
import { reasonOf, writeFailure } from '../output/write-errors.js';
import { openDirect, openOutput } from '../output/writer.js';

export interface BatchOutput {
  /** Bytes in the file so far, including those kept from a stopped run (0 for stdout). */
  readonly bytes: number;
  /** The partial file while it is written; undefined for stdout and direct targets. */
  readonly partialPath: string | undefined;
  /** SHA-256 of every byte in the file so far, hex. */
  digest(): string;
  write(chunk: Chunk): Promise<void>;
  /** Success: close and rename the partial file over FILE. */
  commit(): Promise<void>;
  /** Stop: close and keep the partial file for --resume. Never throws. */
  abandon(): Promise<void>;
  /** Stop with nothing worth keeping: close and remove the partial file. Never throws. */
  discard(): Promise<void>;
}

export async function openStdoutOutput(stdout: NodeJS.WritableStream): Promise<BatchOutput> {
  const target = await openOutput({ stdout });
  return {
    bytes: 0,
    partialPath: undefined,
    digest: () => '',
    write: (chunk) => target.write(chunk),
    commit: () => target.commit(),
    abandon: () => target.abandon(),
    discard: () => target.abandon(),
  };
}

/** A FIFO or device: written as it is, so nothing to rename and nothing to resume. */
export async function openDirectOutput(file: string, path: string): Promise<BatchOutput> {
  const handle = await refuseOpen(file, () => openDirect(path));
  return countingOutput(new FileSink(handle, file), 0, createHash('sha256'), undefined);
}

/** A new partial file beside `target` (the -o path with its links followed). */
export async function openFileOutput(
  file: string,
  target: string,
  existing: import('node:fs').Stats | undefined,
): Promise<BatchOutput> {
  const { handle, path } = await refuseOpen(file, () => createPartialFile(target, existing));
  return countingOutput(new FileSink(handle, path), 0, createHash('sha256'), { path, target, file });
}

/**
 * A stopped run's partial file, reopened for appending once it is shown to hold what the state
 * file says: a regular file (never a link), at least `bytes` long, whose first `bytes` hash to
 * `sha256`. What came after (half a row, json's closing `]`) is cut off.
 */
export async function reopenPartialFile(
  file: string,
  target: string,
  partial: string,
  expected: { bytes: number; sha256: string },
): Promise<BatchOutput> {
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
    return countingOutput(new FileSink(handle, partial), expected.bytes, hash, {
      path: partial,
      target,
      file,
    });
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

async function hashPrefix(handle: FileHandle, length: number): Promise<Hash> {
  const hash = createHash('sha256');
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

function countingOutput(
  sink: Sink,
  startBytes: number,
  hash: Hash,
  partial: { path: string; target: string; file: string } | undefined,
): BatchOutput {
  let bytes = startBytes;
  let closed = false;
  return {
    get bytes() {
      return bytes;
    },
    partialPath: partial?.path,
    digest: () => hash.copy().digest('hex'),
    write: async (chunk) => {
      if (chunk.length === 0) return;
      const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      await sink.write(chunk);
      hash.update(data);
      bytes += data.length;
    },
    commit: async () => {
      if (closed) return;
      closed = true;
      await sink.close();
      if (!partial) return;
      try {
        await rename(partial.path, partial.target);
      } catch (error) {
        throw writeFailure(partial.file, error);
      }
    },
    abandon: async () => {
      if (closed) return;
      closed = true;
      await sink.close().catch(() => {});
    },
    discard: async () => {
      if (closed) return;
      closed = true;
      await sink.close().catch(() => {});
      if (partial) await rm(partial.path, { force: true }).catch(() => {});
    },
  };
}

async function refuseOpen<T>(file: string, opening: () => Promise<T>): Promise<T> {
  try {
    return await opening();
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
}
