// The one place output bytes leave the process, and the one way a destination is opened (openOutput):
// stdout; `-o FILE` through a partial file renamed over FILE on success; a FIFO or device written
// directly; FILE itself for --append; a batch's stopped partial file for --resume (destination.ts opens
// each), optionally counting and hashing every byte for a batch's state file.
//
// Small chunks (one csv row) are gathered into batches of about 64 KB, so a 200k-row export costs a
// few hundred writes rather than 200k. A batch that is not full is still written on the next turn
// of the event loop, so streamed output (json as pages arrive) shows up without waiting for 64 KB.
import type { Hash } from 'node:crypto';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import {
  type AppendingTo,
  BrokenPipeError,
  createPartialFile,
  errorCode,
  openForAppend,
  reasonOf,
  reopenStoppedPartial,
  resolveOutputPath,
  writeFailure,
} from './destination.js';
import { type Chunk, chunkBytes, joinChunks } from './formats.js';

/** Where the bytes go: each write resolves once the data is handed over (awaiting it is the backpressure). */
interface Sink {
  write(data: Chunk): Promise<void>;
  close(): Promise<void>;
}

/**
 * A writable stream, normally process.stdout, listened to for 'error' its whole life: an EPIPE must never
 * crash Node as an unhandled 'error' event. After an error every pending and later write rejects with it.
 */
class StreamSink implements Sink {
  private failure: Error | undefined;
  private readonly pending = new Set<(error: Error) => void>();

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', (error: unknown) => this.fail(error));
  }

  write(data: Chunk): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.add(reject);
      this.stream.write(data, (error?: Error | null) => {
        // Gone from `pending` means an 'error' event has rejected this write already.
        if (!this.pending.delete(reject)) return;
        if (error) reject(this.fail(error));
        else resolve();
      });
    });
  }

  async close(): Promise<void> {}

  private fail(error: unknown): Error {
    this.failure ??=
      errorCode(error) === 'EPIPE' ? new BrokenPipeError() : writeFailure('standard output', error);
    const waiting = [...this.pending];
    this.pending.clear();
    for (const reject of waiting) reject(this.failure);
    return this.failure;
  }
}

/** An open file, FIFO or device; handle.write may write less than asked, so loop until all bytes are out. */
function fileSink(handle: FileHandle, name: string, { syncOnClose = false } = {}): Sink {
  return {
    async write(data) {
      const bytes = chunkBytes(data);
      try {
        let offset = 0;
        while (offset < bytes.length) {
          const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
          offset += bytesWritten;
        }
      } catch (error) {
        // A FIFO or /dev/fd/N whose reader went away (`-o >(head -1)`): the reader's choice, as on stdout.
        if (errorCode(error) === 'EPIPE') throw new BrokenPipeError(`${name} was closed by its reader`);
        throw writeFailure(name, error);
      }
    },
    async close() {
      if (syncOnClose) await handle.sync().catch(() => {});
      try {
        await handle.close();
      } catch (error) {
        throw writeFailure(name, error);
      }
    },
  };
}

export interface OutputTarget {
  /** The partial file of an -o FILE while it is written; undefined for stdout, direct targets and --append. */
  readonly partialPath: string | undefined;
  /** With `append`: what FILE held when opened (abandon and discard cut it back to `size`). */
  readonly appendingTo?: AppendingTo;
  /** With `hash`: bytes in the file so far, including those kept from a stopped run. */
  readonly bytes: number;
  /** With `hash`: SHA-256 of every byte in the file so far, hex ('' without `hash`). */
  digest(): string;
  /** Queue a chunk; resolves once it may be followed (backpressure). */
  write(chunk: Chunk): Promise<void>;
  /** Success: write what is left, close, rename the partial file over FILE. */
  commit(): Promise<void>;
  /** Failure or interrupt: write what is left, close, keep the partial file (--append: cut back). Never throws. */
  abandon(): Promise<void>;
  /** Failure before anything worth keeping was written: close and remove the partial file (--append: cut back). Never throws. */
  discard(): Promise<void>;
}

export interface OpenOutputOptions {
  /** -o FILE; undefined or `-` = stdout. */
  file?: string;
  stdout: NodeJS.WritableStream;
  /** Batch size before a write is forced (default 64 KB; 0 writes every chunk at once). */
  bufferBytes?: number;
  /** Add to the end of FILE, a regular file or none yet (--append). */
  append?: boolean;
  /** --resume: this stopped partial file of FILE, reopened (destination.ts); counting goes on from there. */
  resume?: { partial: string; bytes: number; sha256: string };
  /** Count and hash the bytes for a batch's state file; every chunk is then written at once. */
  hash?: boolean;
}

interface TargetEnding {
  /** The partial file, renamed over `renameTo` on commit, removed on discard, kept on abandon. */
  partial?: { path: string; renameTo: string; name: string };
  /** --append: cut the file back on abandon and discard. Never throws. */
  rollback?: () => Promise<void>;
  appendingTo?: AppendingTo;
  /** The running hash and the bytes it has seen (a resumed batch's include those already in the file). */
  hash?: Hash;
  bytes?: number;
}

const DEFAULT_BUFFER_BYTES = 64 * 1024;

export async function openOutput(options: OpenOutputOptions): Promise<OutputTarget> {
  const file = options.file;
  const where = file === undefined ? ({ kind: 'stdout' } as const) : await resolveOutputPath(file);
  const hash = options.hash ? (await import('node:crypto')).createHash('sha256') : undefined;
  const bufferBytes = hash ? 0 : (options.bufferBytes ?? DEFAULT_BUFFER_BYTES);
  const made = (sink: Sink, ending: TargetEnding = {}) =>
    new BufferedTarget(sink, bufferBytes, { ...(hash ? { hash } : {}), ...ending });
  if (where.kind === 'stdout') return made(new StreamSink(options.stdout));
  const name = file as string;
  if (where.kind === 'direct') {
    if (options.append || options.resume)
      throw new UsageError(`cannot append to ${name}: not a regular file`);
    // Opened as the shell's `>>` would: `-o /dev/stdout >> log` adds to the log rather than writing over its start.
    const handle = await openOrRefuse(name, () => open(where.path, 'a'));
    return made(fileSink(handle, name));
  }
  if (options.resume) {
    const { partial, bytes } = options.resume;
    // Not openOrRefuse: a failure here says how the partial file disagrees with the state file.
    const stopped = await reopenStoppedPartial(name, options.resume);
    return new BufferedTarget(fileSink(stopped.handle, partial), 0, {
      partial: { path: partial, renameTo: where.target, name },
      hash: stopped.hash,
      bytes,
    });
  }
  if (options.append) {
    const { handle, appendingTo, rollback } = await openOrRefuse(name, () =>
      openForAppend(where.target, where.existing !== undefined),
    );
    // Synced before it is closed: a checkpoint moved after this must never point past rows a crash lost.
    return made(fileSink(handle, name, { syncOnClose: true }), { appendingTo, rollback });
  }
  const { handle, path } = await openOrRefuse(name, () => createPartialFile(where.target, where.existing));
  return made(fileSink(handle, path), { partial: { path, renameTo: where.target, name } });
}

async function openOrRefuse<T>(file: string, opening: () => Promise<T>): Promise<T> {
  try {
    return await opening();
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
}

/** What write() returns when the chunk was only queued: one shared promise, not one per row. */
const QUEUED: Promise<void> = Promise.resolve();

class BufferedTarget implements OutputTarget {
  private chunks: Chunk[] = [];
  private bufferedLength = 0;
  private flushScheduled = false;
  private closed = false;
  /** The batch in flight; batches are written strictly one after another. */
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;
  private written: number;

  constructor(
    private readonly sink: Sink,
    private readonly bufferBytes: number,
    private readonly ending: TargetEnding = {},
  ) {
    this.written = ending.bytes ?? 0;
  }

  get partialPath(): string | undefined {
    return this.ending.partial?.path;
  }

  get appendingTo(): AppendingTo | undefined {
    return this.ending.appendingTo;
  }

  get bytes(): number {
    return this.written;
  }

  digest(): string {
    return this.ending.hash?.copy().digest('hex') ?? '';
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
      await this.ending.rollback?.();
      throw error;
    }
    const partial = this.ending.partial;
    if (!partial) return;
    try {
      await rename(partial.path, partial.renameTo);
    } catch (error) {
      throw writeFailure(partial.name, error);
    }
  }

  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush().catch(() => {});
    await this.sink.close().catch(() => {});
    await this.ending.rollback?.();
  }

  async discard(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.chunks = [];
    await this.inFlight.catch(() => {});
    await this.sink.close().catch(() => {});
    await this.ending.rollback?.();
    const partial = this.ending.partial?.path;
    if (partial !== undefined) await rm(partial, { force: true }).catch(() => {});
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
      const { chunks } = this;
      this.chunks = [];
      this.bufferedLength = 0;
      let batch = joinChunks(chunks);
      const hash = this.ending.hash;
      if (hash) batch = chunkBytes(batch);
      this.inFlight = this.inFlight.then(async () => {
        await this.sink.write(batch);
        if (!hash) return;
        hash.update(batch);
        this.written += batch.length;
      });
      this.inFlight.catch((error: unknown) => {
        this.failure ??= error;
      });
    }
    return this.inFlight;
  }
}
