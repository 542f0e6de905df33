// Where output goes, and the one place its bytes leave the process: what -o names (docs/output.md, "`-o`
// and each kind of path"), --append, --resume's partial file, and file errors in words a user can act on
// (the state files and input readers use them too); optionally counting and hashing every byte for a batch.
//
// Small chunks (one csv row) are gathered into batches of about 64 KB, so a 200k-row export costs a
// few hundred writes rather than 200k. A batch that is not full is still written on the next turn
// of the event loop, so streamed output (json as pages arrive) shows up without waiting for 64 KB.
import type { Hash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, readlink, rename, rm, stat, truncate } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ExitCode, LeadError, UsageError } from '../api/errors.js';
import { type Chunk, chunkBytes, joinChunks } from './formats.js';

/** stdout's reader went away (EPIPE, e.g. `leadctl leads --all | head`): the CLI ends quietly, exit 0. */
export class BrokenPipeError extends Error {
  constructor(message = 'standard output was closed by its reader') {
    super(message);
    this.name = 'BrokenPipeError';
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a parent is not a directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
};

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function reasonOf(error: unknown): string {
  const code = errorCode(error);
  if (code && REASONS[code]) return REASONS[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** A failure while writing (not opening): the environment's fault, not the user's flags. */
export function writeFailure(target: string, error: unknown): LeadError {
  return new LeadError(`cannot write ${target}: ${reasonOf(error)}`, {
    exitCode: ExitCode.internal,
    cause: error,
  });
}

export type OutputPath =
  | { kind: 'stdout' }
  /** Opened and written as it is: a FIFO, a character or block device, an inherited descriptor. */
  | { kind: 'direct'; path: string }
  /** A regular file (or none yet) at `target`, the path after following every symlink. */
  | { kind: 'file'; target: string; existing: Stats | undefined };

/** Links longer than this are a loop (Linux gives up at 40 too). */
const MAX_LINKS = 40;

/** /dev/stdout, /dev/fd/3, /proc/self/fd/3: a descriptor the shell opened (`-o >(gzip > x.gz)`). */
const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

/** Resolved before the first request: a directory or a missing folder fails at once. */
export async function resolveOutputPath(file: string): Promise<OutputPath> {
  if (file === '-') return { kind: 'stdout' };
  // Their links point into /proc ("pipe:[1234]"): never follow them by hand, let open() do it.
  if (DESCRIPTOR_PATH.test(file)) return { kind: 'direct', path: file };
  const target = await followLinks(file);
  let existing: Stats | undefined;
  try {
    existing = await stat(target);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${file}: is a directory`);
  if (existing?.isSocket()) throw new UsageError(`cannot write ${file}: is a socket`);
  if (existing && (existing.isFIFO() || existing.isCharacterDevice() || existing.isBlockDevice())) {
    return { kind: 'direct', path: target };
  }
  return { kind: 'file', target, existing };
}

/** The path a chain of symlinks ends at, existing or not (a dangling link names the file to create). */
async function followLinks(file: string): Promise<string> {
  let path = resolve(file);
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(path)).isSymbolicLink();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return path;
      throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
    }
    if (!isLink) return path;
    path = resolve(dirname(path), await readlink(path));
  }
  throw new UsageError(`cannot write ${file}: too many levels of symbolic links`);
}

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDWR, O_WRONLY } = constants;
const PARTIAL_SUFFIX = '.partial';

/** `leads.csv` -> `leads.csv.3fa9c21b.partial`. node:crypto loads only for -o (a one-page run to stdout never needs it). */
async function partialName(target: string): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return `${target}.${randomBytes(4).toString('hex')}${PARTIAL_SUFFIX}`;
}

/** True for a name partialName(target) could have made: how --resume checks a state file's claim. */
export function isPartialNameFor(target: string, name: string): boolean {
  return (
    name.startsWith(`${target}.`) &&
    name.endsWith(PARTIAL_SUFFIX) &&
    /^[0-9a-f]{8}$/.test(name.slice(target.length + 1, -PARTIAL_SUFFIX.length))
  );
}

/**
 * O_EXCL|O_NOFOLLOW under a random name: a planted link is never followed, two runs never share a file.
 * It takes an existing target's mode (and owner where allowed): the rename must not widen access.
 */
export async function createPartialFile(
  target: string,
  existing: Stats | undefined,
): Promise<{ handle: FileHandle; path: string }> {
  for (let attempt = 0; ; attempt++) {
    const path = await partialName(target);
    let handle: FileHandle;
    try {
      // A new file: 0644 before the umask (lead data is never group- or world-writable). Replacing
      // one: private until its own mode is copied below.
      handle = await open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, existing ? 0o600 : 0o644);
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && attempt < 4) continue;
      throw error;
    }
    if (existing) {
      // Only root may give a file away; anyone may keep a group they belong to. Neither is worth failing for.
      await handle.chown(existing.uid, existing.gid).catch(() => {});
      await handle.chmod(existing.mode & 0o777);
    }
    return { handle, path };
  }
}

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

/**
 * --append: rows go to the end of FILE itself; `rollback` (a run that fails or is interrupted) cuts it
 * back to its length at opening, or removes it when this run created it. `target` has its links followed.
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
 * How to cut the -o file back to its length now: for a run whose output is committed but whose checkpoint
 * could not be moved, so the next run, fetching the same items again, does not append them twice.
 */
export async function appendUndoPoint(file: string): Promise<() => Promise<void>> {
  const where = await resolveOutputPath(file);
  if (where.kind !== 'file') return async () => {};
  const { target, existing } = where;
  return () => (existing ? truncate(target, existing.size) : rm(target, { force: true })).catch(() => {});
}

/**
 * A stopped batch's partial file, reopened for appending once its first `bytes` hash to `sha256` (a
 * regular file, never a link); what came after (half a row, json's closing `]`) is cut off.
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

/** Where the bytes go: each write resolves once the data is handed over (awaiting it is the backpressure). */
interface Sink {
  write(data: Chunk): Promise<void>;
  close(): Promise<void>;
}

// A writable stream, normally process.stdout, listened to for 'error' its whole life: an EPIPE must never
// crash Node as an unhandled 'error' event. After an error every pending and later write rejects with it.
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
  /** --resume: this stopped partial file of FILE, reopened; counting goes on from there. */
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
