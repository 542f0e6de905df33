// Where buffered output finally goes: a stream (stdout) or a file handle. Each write resolves only
// when the data has been handed over, so awaiting it is the backpressure.
import type { FileHandle } from 'node:fs/promises';
import type { Chunk } from './formats.js';
import { BrokenPipeError, errorCode, writeFailure } from './write-errors.js';

export interface Sink {
  write(data: Chunk): Promise<void>;
  close(): Promise<void>;
}

/**
 * A writable stream, normally process.stdout. It listens for 'error' for its whole life: an EPIPE
 * must never reach Node as an unhandled 'error' event (which would crash with a stack trace). After
 * an error every pending and later write rejects with the same error.
 */
export class StreamSink implements Sink {
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

  /** stdout is not ours to end: closing means every write has been handed over, which awaiting did. */
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

/** An open file, FIFO or device; node's handle.write may write less than asked, so loop until all bytes are out. */
export class FileSink implements Sink {
  constructor(
    private readonly handle: FileHandle,
    private readonly name: string,
  ) {}

  async write(data: Chunk): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    try {
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
    } catch (error) {
      // A FIFO or /dev/fd/N whose reader went away (`-o >(head -1)`): the reader's choice, as on stdout.
      if (errorCode(error) === 'EPIPE') throw new BrokenPipeError(`${this.name} was closed by its reader`);
      throw writeFailure(this.name, error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.handle.close();
    } catch (error) {
      throw writeFailure(this.name, error);
    }
  }
}
