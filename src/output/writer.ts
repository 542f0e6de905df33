// The one place output bytes leave the process: stdout, a FIFO or device written directly, or -o FILE
// through a partial file renamed over FILE on success (output-path.ts says which is which), or with
// --append FILE itself, cut back to its first length on failure (append-file.ts).
//
// Small chunks (one csv row) are gathered into batches of about 64 KB, so a 200k-row export costs a
// few hundred writes rather than 200k. A batch that is not full is still written on the next turn
// of the event loop, so streamed output (json as pages arrive) shows up without waiting for 64 KB.
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { openAppendFile } from './append-file.js';
import type { Chunk } from './formats.js';
import { resolveOutputPath } from './output-path.js';
import { createPartialFile } from './partial-file.js';
import { FileSink, type Sink, StreamSink } from './sinks.js';
import { reasonOf, writeFailure } from './write-errors.js';

export { BrokenPipeError } from './write-errors.js';

export interface OutputTarget {
  /** The partial file of an -o FILE while it is written; undefined for stdout and direct targets. */
  readonly partialPath: string | undefined;
  /** Queue a chunk (text or bytes); resolves once it may be followed (backpressure). '' is a no-op. */
  write(chunk: Chunk): Promise<void>;
  /** Success: write what is left, close, rename the partial file over FILE. */
  commit(): Promise<void>;
  /** Failure or interrupt: write what is left, close, keep the partial file. Never throws. */
  abandon(): Promise<void>;
  /** Failure before anything worth keeping was written: close and remove the partial file. Never throws. */
  discard(): Promise<void>;
  /** With `append`: what FILE held when opened (abandon and discard cut it back to `size`). */
  readonly appendingTo?: { size: number; head: string; endsWithNewline: boolean };
}

export interface OpenOutputOptions {
  /** -o FILE; undefined or `-` = stdout. */
  file?: string;
  stdout: NodeJS.WritableStream;
  /** Batch size before a write is forced (default 64 KB; 0 writes every chunk at once). */
  bufferBytes?: number;
  /** Add to the end of FILE, a regular file or none yet (--append). */
  append?: boolean;
}

const DEFAULT_BUFFER_BYTES = 64 * 1024;

/** What write() returns when the chunk was only queued: one shared promise, not one per row. */
const QUEUED: Promise<void> = Promise.resolve();

export async function openOutput(options: OpenOutputOptions): Promise<OutputTarget> {
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  const file = options.file;
  // Resolved now, before the first request: a directory or a missing folder fails at once.
  const where = file === undefined ? ({ kind: 'stdout' } as const) : await resolveOutputPath(file);
  if (where.kind === 'stdout') return new BufferedOutput(new StreamSink(options.stdout), bufferBytes);
  const name = file as string;
  if (options.append) {
    if (where.kind !== 'file') throw new UsageError(`cannot append to ${name}: not a regular file`);
    const appended = await openOrRefuse(name, () =>
      openAppendFile(name, where.target, where.existing !== undefined),
    );
    const output = new BufferedOutput(appended.sink, bufferBytes, {
      commit: async () => {},
      abandon: appended.rollback,
      discard: appended.rollback,
    });
    return Object.assign(output, { appendingTo: appended });
  }
  if (where.kind === 'direct') {
    const handle = await openOrRefuse(name, () => openDirect(where.path));
    return new BufferedOutput(new FileSink(handle, name), bufferBytes);
  }
  const { handle, path } = await openOrRefuse(name, () => createPartialFile(where.target, where.existing));
  return new BufferedOutput(new FileSink(handle, path), bufferBytes, {
    path,
    abandon: async () => {},
    discard: () =>
      rm(path, { force: true }).then(
        () => {},
        () => {},
      ),
    commit: async () => {
      try {
        await rename(path, where.target);
      } catch (error) {
        throw writeFailure(name, error);
      }
    },
  });
}

/**
 * A FIFO, device or inherited descriptor, opened as the shell's `>>` would: appending, so that
 * `-o /dev/stdout >> log` adds to the log rather than writing over its start.
 */
export function openDirect(path: string): Promise<FileHandle> {
  return open(path, 'a');
}

async function openOrRefuse<T>(file: string, opening: () => Promise<T>): Promise<T> {
  try {
    return await opening();
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
}

/** What becomes of an -o file once it is closed: renamed into place, kept, removed, or cut back. */
interface PartialHandling {
  /** The partial file, when there is one (none when appending to FILE itself). */
  path?: string;
  commit(): Promise<void>;
  /** After a failure that wrote rows. Never throws. */
  abandon(): Promise<void>;
  /** After a failure that wrote nothing worth keeping. Never throws. */
  discard(): Promise<void>;
}

class BufferedOutput implements OutputTarget {
  private chunks: Chunk[] = [];
  private bufferedLength = 0;
  private flushScheduled = false;
  private closed = false;
  /** The batch in flight; batches are written strictly one after another. */
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly sink: Sink,
    private readonly bufferBytes: number,
    private readonly partial?: PartialHandling,
  ) {}

  get partialPath(): string | undefined {
    return this.partial?.path;
  }

  write(chunk: Chunk): Promise<void> {
    if (this.closed) return Promise.reject(new Error('output is already closed'));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (chunk.length === 0) return QUEUED;
    this.chunks.push(chunk);
    this.bufferedLength += chunk.length;
    if (this.bufferedLength >= this.bufferBytes) return this.flush();
    this.scheduleFlush();
    return QUEUED;
  }

  async commit(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flush();
      await this.sink.close();
    } catch (error) {
      await this.sink.close().catch(() => {});
      await this.partial?.abandon();
      throw error;
    }
    await this.partial?.commit();
  }

  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush().catch(() => {});
    await this.sink.close().catch(() => {});
    await this.partial?.abandon();
  }

  async discard(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.chunks = [];
    await this.inFlight.catch(() => {});
    await this.sink.close().catch(() => {});
    await this.partial?.discard();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // A failure here is kept in this.failure and reported by the next write() or commit().
      this.flush().catch(() => {});
    });
  }

  /** Write the gathered chunks after the batch in flight; resolves when both are handed over. */
  private flush(): Promise<void> {
    if (this.chunks.length > 0) {
      // Text stays one string (the common case); a batch holding bytes (xlsx) is joined as bytes.
      const batch = this.chunks.every((chunk) => typeof chunk === 'string')
        ? this.chunks.join('')
        : Buffer.concat(this.chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
      this.chunks = [];
      this.bufferedLength = 0;
      this.inFlight = this.inFlight.then(() => this.sink.write(batch));
      this.inFlight.catch((error: unknown) => {
        this.failure ??= error;
      });
    }
    return this.inFlight;
  }
}
