// Where output goes, opened but not written (writing is target.ts's): what -o names by shell
// conventions, an -o FILE's partial file, FILE itself for --append, a stopped batch's partial file for
// --resume, and file errors in words a user can act on (the state files and input readers use them too).
import type { Hash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, readlink, rm, stat, truncate } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ExitCode, LeadError, UsageError } from '../api/errors.js';

// Errors, in words a user can act on.

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

/** "permission denied" for an EACCES, else the error's code or message. */
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

// What -o names, by shell conventions.

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

// The partial file.

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

// --append and --resume: opening a file that is already there.

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
