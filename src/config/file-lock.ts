// A lock between leadctl processes on a file that is read, changed and replaced (the config, the
// usage ledger): a folder `<file>.lock`, made with mkdir, which succeeds for exactly one process. It
// is the lock proper-lockfile made for leadctl before, so older and newer leadctl runs exclude each
// other. The lock is held only while synchronous code runs (read, change, write, rename: a few ms), so
// no timer or signal handler of this process runs while it is held, and nothing needs to refresh it.
// A lock older than STALE_MS was left by a process that died holding it: the next writer takes over.
// (Two writers that find the same stale lock at the same moment may both take it, as with
// proper-lockfile; only a process killed within its few ms leaves one.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const STALE_MS = 10_000;
/** Waits for other writers: up to about 10 s, which only a stuck process would use up. */
export const WAIT_MS = 10_000;

/** The lock is held by another process and was not released within WAIT_MS. */
export class FileLockedError extends Error {
  readonly code = 'ELOCKED';
  constructor(readonly lockPath: string) {
    super(`${lockPath} is held by another process`);
  }
}

/** This process held the lock past STALE_MS: another may have taken it over, so nothing was written. */
export class FileLockLostError extends Error {
  constructor(readonly lockPath: string) {
    super(
      `${lockPath} was held over ${STALE_MS / 1000} s (was leadctl stopped?); another process may have taken it`,
    );
  }
}

export interface HeldLock {
  /**
   * Throws if this process held the lock so long (stopped with Ctrl-Z, a suspended laptop) that
   * another may have taken it over as stale: call it just before writing.
   */
  check(): void;
}

/**
 * Runs `work` while holding `<file>.lock`, waiting for another holder to finish. Errors of `work`
 * pass through; the lock is released either way.
 */
export async function withFileLock<T>(
  file: string,
  work: (lock: HeldLock) => T,
  { sleep = defaultSleep }: { sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const lockPath = `${file}.lock`;
  const waitUntil = Date.now() + WAIT_MS;
  for (let attempt = 0; !tryLock(lockPath); attempt++) {
    if (Date.now() >= waitUntil) throw new FileLockedError(lockPath);
    await sleep(backoffMs(attempt));
  }
  const acquiredAt = Date.now();
  try {
    return work({
      check: () => {
        if (Date.now() - acquiredAt >= STALE_MS) throw new FileLockLostError(lockPath);
      },
    });
  } finally {
    // Held past STALE_MS, the folder may be another process's by now: it is left to go stale.
    if (Date.now() - acquiredAt < STALE_MS) fs.rmSync(lockPath, { recursive: true, force: true });
  }
}

/** Takes the lock if it is free or stale; false if another process holds it. */
function tryLock(lockPath: string): boolean {
  if (mkdirOnce(lockPath)) return true;
  let modified: number;
  try {
    modified = fs.statSync(lockPath).mtimeMs;
  } catch (error) {
    // Released between our mkdir and stat: try again.
    if ((error as { code?: unknown }).code === 'ENOENT') return mkdirOnce(lockPath);
    throw error;
  }
  if (Date.now() - modified < STALE_MS) return false;
  fs.rmSync(lockPath, { recursive: true, force: true });
  return mkdirOnce(lockPath);
}

function mkdirOnce(lockPath: string): boolean {
  try {
    fs.mkdirSync(lockPath);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

/** 10 ms growing by 1.3x to 250 ms, each between 1x and 2x so that waiting writers spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(250, 10 * 1.3 ** attempt) * (1 + random());
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// A lock held for a whole run (a checkpoint file, a batch's FILE.state: minutes, hours). The same
// folder `<file>.lock`, but it holds `owner.json` (pid, host, start time), so that a second run can
// name the holder, and a lock left by a process that died is taken over however young it is, while a
// live holder's is never taken however old. mkdir decides who gets it, as above; the winner renames
// a folder holding its owner over its empty one at once.

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601: when the holder took the lock. */
  startedAt: string;
  /** Tells this holding apart from an earlier one of a reused pid. */
  token: string;
}

/** Another process holds the lock; `holder` is undefined when it could not be read. */
export class FileHeldError extends Error {
  readonly code = 'EHELD';
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lockPath} is held by ${holder ? `process ${holder.pid}` : 'another process'}`);
  }
}

export interface RunLock {
  readonly lockPath: string;
  /** Removes the lock if it is still this holding's. Never throws; later calls do nothing. */
  release(): void;
}

export interface RunLockOptions {
  now?: () => number;
  /** Whether a pid is a running process (on this host). */
  isAlive?: (pid: number) => boolean;
  host?: string;
}

const OWNER_FILE = 'owner.json';

/**
 * Takes `<file>.lock` for this process until release() (or its exit). Throws FileHeldError when a
 * live process holds it, and the file system's error when the folder cannot be made (no such
 * folder, permission denied).
 */
export function holdFileLock(file: string, options: RunLockOptions = {}): RunLock {
  const { now = Date.now, isAlive = processAlive, host = os.hostname() } = options;
  const lockPath = `${file}.lock`;
  const me: LockHolder = {
    pid: process.pid,
    host,
    startedAt: new Date(now()).toISOString(),
    token: randomPart(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (install(lockPath, me)) return heldBy(lockPath, me);
    const found = readHolder(lockPath);
    if (found === 'gone') continue;
    if (found === undefined) {
      // No owner: a lock of withFileLock's kind, held for milliseconds unless its process died.
      if (!olderThan(lockPath, STALE_MS, now())) throw new FileHeldError(lockPath, undefined);
      takeOver(lockPath, undefined);
      continue;
    }
    // A pid means nothing on another host (a shared folder): such a holder is never taken over.
    if (found.host !== host || isAlive(found.pid)) throw new FileHeldError(lockPath, found);
    takeOver(lockPath, found);
  }
  throw new FileHeldError(lockPath, undefined);
}

function heldBy(lockPath: string, me: LockHolder): RunLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    const found = readHolder(lockPath);
    if (typeof found === 'object' && found.token === me.token) {
      fs.rmSync(lockPath, { recursive: true, force: true });
    }
  };
  // A run that ends without reaching its release (an uncaught error) still frees the file.
  process.once('exit', release);
  return { lockPath, release };
}

/**
 * mkdir decides who gets the lock, as in withFileLock; the winner then renames a folder holding its
 * owner over its own empty one (rename replaces an empty folder, never one that holds files), so
 * the lock is never seen without an owner for more than that instant.
 */
function install(lockPath: string, me: LockHolder): boolean {
  const building = `${lockPath}.${me.pid}.${randomPart()}.new`;
  fs.mkdirSync(building, { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(building, OWNER_FILE), `${JSON.stringify(me)}\n`, { mode: 0o600 });
    if (!mkdirOnce(lockPath)) return false;
    try {
      fs.renameSync(building, lockPath);
    } catch (error) {
      fs.rmSync(lockPath, { recursive: true, force: true });
      throw error;
    }
    return true;
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/** The lock's owner; undefined when it has none (or an unreadable one); 'gone' when there is no lock. */
function readHolder(lockPath: string): LockHolder | undefined | 'gone' {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lockPath, OWNER_FILE), 'utf8')) as LockHolder;
    const valid =
      Number.isSafeInteger(owner.pid) &&
      typeof owner.host === 'string' &&
      typeof owner.startedAt === 'string' &&
      typeof owner.token === 'string';
    return valid ? owner : undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' && !fs.existsSync(lockPath)) return 'gone';
    return undefined;
  }
}

function olderThan(lockPath: string, ms: number, nowMs: number): boolean {
  try {
    return nowMs - fs.statSync(lockPath).mtimeMs >= ms;
  } catch {
    return false;
  }
}

/**
 * Moves a dead holder's folder aside (one rename: of two runs taking over at once, one moves it),
 * then checks that what it moved is the folder it judged; if another run had installed its own lock
 * in between, that folder is put back.
 */
function takeOver(lockPath: string, judged: LockHolder | undefined): void {
  const aside = `${lockPath}.${process.pid}.${randomPart()}.old`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return;
    throw error;
  }
  const moved = readHolder(aside);
  const same = typeof moved === 'object' ? moved.token === judged?.token : judged === undefined;
  if (!same) {
    try {
      fs.renameSync(aside, lockPath);
      return;
    } catch {
      // A third run installed a lock meanwhile: it holds the file now; the moved one is dropped.
    }
  }
  fs.rmSync(aside, { recursive: true, force: true });
}

/** kill(pid, 0) checks without signalling: ESRCH is no such process; EPERM is someone else's, alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** "pid 1234, started 2026-11-25 03:41:07 UTC" (or what is known of it). */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process (its lock names no owner yet)';
  const when = holder.startedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return `pid ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}, started ${when}`;
}

const randomPart = () => Math.random().toString(36).slice(2, 10);
