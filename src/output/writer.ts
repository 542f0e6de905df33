// The one place output bytes leave the process: stdout, or -o FILE through FILE.partial.
//
// Small chunks (one csv row) are gathered into batches of about 64 KB, so a 200k-row export costs a
// few hundred writes rather than 200k. A batch that is not full is still written on the next turn
// of the event loop, so streamed output (json as pages arrive) shows up without waiting for 64 KB.
import { open, rename, stat } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { FileSink, type Sink, StreamSink } from './sinks.js';
import { reasonOf, writeFailure } from './write-errors.js';

export { BrokenPipeError } from './write-errors.js';

export interface OutputTarget {
  /** Queue a chunk; resolves once it may be followed (backpressure). '' is a no-op. */
  write(chunk: string): Promise<void>;
  /** Success: write what is left, close, rename FILE.partial -> FILE. */
  commit(): Promise<void>;
  /** Failure or interrupt: write what is left, close, leave FILE.partial. Never throws. */
  abandon(): Promise<void>;
}

export interface OpenOutputOptions {
  /** -o FILE; undefined = stdout. */
  file?: string;
  stdout: NodeJS.WritableStream;
  /** Batch size before a write is forced (default 64 KB; 0 writes every chunk at once). */
  bufferBytes?: number;
}

const DEFAULT_BUFFER_BYTES = 64 * 1024;

/** What write() returns when the chunk was only queued: one shared promise, not one per row. */
const QUEUED: Promise<void> = Promise.resolve();

export async function openOutput(options: OpenOutputOptions): Promise<OutputTarget> {
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  if (options.file === undefined) return new BufferedOutput(new StreamSink(options.stdout), bufferBytes);

  const file = options.file;
  const partial = `${file}.partial`;
  // Refuse a directory now rather than after a long export, when the final rename would fail.
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${file}: is a directory`);
  try {
    // 0o644 before the umask: lead data is never group- or world-writable, even with umask 0.
    const handle = await open(partial, 'w', 0o644);
    const finish = async () => {
      try {
        await rename(partial, file);
      } catch (error) {
        throw writeFailure(file, error);
      }
    };
    return new BufferedOutput(new FileSink(handle, partial), bufferBytes, finish);
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
}

class BufferedOutput implements OutputTarget {
  private chunks: string[] = [];
  private bufferedLength = 0;
  private flushScheduled = false;
  private closed = false;
  /** The batch in flight; batches are written strictly one after another. */
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly sink: Sink,
    private readonly bufferBytes: number,
    private readonly onCommit?: () => Promise<void>,
  ) {}

  write(chunk: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('output is already closed'));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (chunk === '') return QUEUED;
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
    } catch (error) {
      await this.sink.close().catch(() => {});
      throw error;
    }
    await this.sink.close();
    await this.onCommit?.();
  }

  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush().catch(() => {});
    await this.sink.close().catch(() => {});
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
      const batch = this.chunks.join('');
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
