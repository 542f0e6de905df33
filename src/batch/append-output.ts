// The batch's -o FILE target. Like the shared writer it writes FILE.partial and renames it to FILE on
// success, but it also counts the bytes it has written (the state file records them) and can reopen
// a stopped run's FILE.partial, cut back to the last fully written search, to append to it.
import { open, rename, stat, truncate } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { FileSink } from '../output/sinks.js';
import { reasonOf, writeFailure } from '../output/write-errors.js';
import { openOutput } from '../output/writer.js';

export interface BatchOutput {
  /** Bytes in the file so far, including those kept from a stopped run (0 for stdout). */
  readonly bytes: number;
  write(chunk: string): Promise<void>;
  /** Success: close and rename FILE.partial to FILE. */
  commit(): Promise<void>;
  /** Stop: close and leave FILE.partial for --resume. Never throws. */
  abandon(): Promise<void>;
}

export function partialPath(file: string): string {
  return `${file}.partial`;
}

export async function openStdoutOutput(stdout: NodeJS.WritableStream): Promise<BatchOutput> {
  const target = await openOutput({ stdout });
  return {
    bytes: 0,
    write: (chunk) => target.write(chunk),
    commit: () => target.commit(),
    abandon: () => target.abandon(),
  };
}

/** resumeAt: the byte length a stopped run recorded; undefined starts a new, empty FILE.partial. */
export async function openFileOutput(file: string, resumeAt?: number): Promise<BatchOutput> {
  const partial = partialPath(file);
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${file}: is a directory`);
  if (resumeAt !== undefined) await cutBack(partial, resumeAt);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Appending after a cut keeps the bytes of the finished searches exactly as they were written.
    handle = await open(partial, resumeAt === undefined ? 'w' : 'a', 0o644);
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
  const sink = new FileSink(handle, partial);
  let bytes = resumeAt ?? 0;
  let closed = false;
  return {
    get bytes() {
      return bytes;
    },
    write: async (chunk) => {
      if (chunk === '') return;
      await sink.write(chunk);
      bytes += Buffer.byteLength(chunk, 'utf8');
    },
    commit: async () => {
      if (closed) return;
      closed = true;
      await sink.close();
      try {
        await rename(partial, file);
      } catch (error) {
        throw writeFailure(file, error);
      }
    },
    abandon: async () => {
      if (closed) return;
      closed = true;
      await sink.close().catch(() => {});
    },
  };
}

/** Drops whatever a stopped run wrote after its last finished search (half a row, json's closing `]`). */
async function cutBack(partial: string, length: number): Promise<void> {
  const info = await stat(partial).catch(() => undefined);
  if (!info || info.size < length) {
    throw new UsageError(
      `cannot resume: ${partial} is ${info ? 'shorter than the stopped run left it' : 'missing'}`,
      'start the batch over without --resume (delete the .state file first)',
    );
  }
  await truncate(partial, length);
}
