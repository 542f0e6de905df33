// Every lock between leadctl processes: a folder `<name>.lock` holding owner.json; the install and takeover
// rules, and why they are safe when two runs race: docs/config.md, "Locks".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';

/** The stale time of a short hold (read, change, write: a few ms) and of a lock without an owner. */
export const STALE_MS = 10_000;
/** How long a short hold waits for another writer: only a stuck process would use it up. */
export const WAIT_MS = 10_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601: when the holder took the lock. */
  startedAt: string;
  /** Tells this holding apart from an earlier one of a reused pid. */
  token: string;
  /** What runs under it, for messages ("leadctl sync"). */
  command?: string;
}

/** Another process holds the lock; `holder` is undefined when it could not be read. */
export class LockedError extends Error {
  readonly code = 'ELOCKED';
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lockPath} is held by ${holder ? `process ${holder.pid}` : 'another process'}`);
  }
}

/** This process held the lock past its stale time: another may have taken it over. */
export class LockLostError extends Error {
  constructor(lockPath: string, staleMs: number) {
    super(
      `${lockPath} was held over ${staleMs / 1000} s (was leadctl stopped?); another process may have taken it`,
    );
  }
}

export interface LockOptions {
  /** A live holder's lock older than this is taken over; Infinity for a lock held for a whole run. */
  staleMs?: number;
  /** How long to wait for a live holder, with a growing backoff; 0: fail at once. */
  waitMs?: number;
  signal?: AbortSignal;
  command?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A lock held for a whole run (a checkpoint, a batch state, a sync): never stale by age, never waited for. */
export const WHOLE_RUN: LockOptions = { staleMs: Number.POSITIVE_INFINITY, waitMs: 0 };

export type Lock = ReturnType<typeof heldBy>;

/** Until release() or exit. LockedError when a live process holds it past `waitMs`; fs errors pass. */
export async function takeLock(lockPath: string, options: LockOptions = {}) {
  const { staleMs = STALE_MS, waitMs = WAIT_MS, signal, command, sleep = pause } = options;
  const me: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    token: randomPart(),
    command,
  };
  const waitUntil = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const holder = tryTake(lockPath, me, staleMs);
    if (holder === me) return heldBy(lockPath, me, staleMs);
    if (Date.now() >= waitUntil) throw new LockedError(lockPath, holder);
    await sleep(backoffMs(attempt), signal);
  }
}

/** Runs `work` holding the lock; errors of `work` pass through, and the lock is released either way. */
export async function withLock<T>(
  lockPath: string,
  options: LockOptions,
  work: (lock: Lock) => T | Promise<T>,
): Promise<T> {
  const lock = await takeLock(lockPath, options);
  try {
    return await work(lock);
  } finally {
    lock.release();
  }
}

/** 10 ms growing by 1.3x to 250 ms, each between 1x and 2x so that waiting runs spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(250, 10 * 1.3 ** attempt) * (1 + random());
}

/** `me` once it holds the lock; else who holds it (undefined: unknown). */
function tryTake(lockPath: string, me: LockHolder, staleMs: number): LockHolder | undefined {
  for (let tries = 0; tries < 5; tries++) {
    if (install(lockPath, me)) return me;
    const found = readHolder(lockPath);
    if (found === 'gone') continue;
    const dead = found !== undefined && found.host === me.host && !processAlive(found.pid);
    if (!dead && ageMs(lockPath) < (found ? staleMs : STALE_MS)) return found;
    takeOver(lockPath, found);
  }
  return undefined;
}

function heldBy(lockPath: string, me: LockHolder, staleMs: number) {
  const acquiredAt = Date.now();
  const overdue = () => Date.now() - acquiredAt >= staleMs;
  let released = false;
  /** Removes the lock if it is still this holding's and not stale. Never throws; later calls do nothing. */
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Held past staleMs, the folder may be another process's by now: it is left to go stale.
    const found = readHolder(lockPath);
    if (overdue() || typeof found !== 'object' || found.token !== me.token) return;
    try {
      fs.rmSync(lockPath, { recursive: true, force: true });
    } catch {
      // Left behind, it names a pid that will be dead: the next run takes it over.
    }
  };
  // A run that ends without reaching its release (an uncaught error) still frees the lock.
  process.once('exit', release);
  return {
    lockPath,
    release,
    /** Throws LockLostError if held so long (Ctrl-Z, a suspended laptop) that another may have taken it. */
    check: () => {
      if (overdue()) throw new LockLostError(lockPath, staleMs);
    },
  };
}

/** mkdir the lock, then rename a folder holding our owner over it (rename replaces only an empty folder). */
function install(lockPath: string, me: LockHolder): boolean {
  const building = `${lockPath}.${me.pid}.${randomPart()}.new`;
  fs.mkdirSync(building, { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(building, 'owner.json'), `${JSON.stringify(me)}\n`, { mode: 0o600 });
    if (!tryFs(() => fs.mkdirSync(lockPath), 'EEXIST')) return false;
    try {
      fs.renameSync(building, lockPath);
      return true;
    } catch (error) {
      // Our empty folder is removed; one a takeover has claimed meanwhile (not empty) is its.
      tryFs(() => fs.rmdirSync(lockPath), 'ENOTEMPTY', 'EEXIST');
      if (['ENOTEMPTY', 'EEXIST'].includes(codeOf(error) ?? '')) return false;
      throw error;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/** The lock's owner; undefined when it has none (or an unreadable one); 'gone' when there is no lock. */
function readHolder(lockPath: string): LockHolder | undefined | 'gone' {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lockPath, 'owner.json'), 'utf8')) as LockHolder;
    const valid =
      Number.isSafeInteger(owner.pid) &&
      typeof owner.host === 'string' &&
      typeof owner.startedAt === 'string' &&
      typeof owner.token === 'string';
    return valid ? owner : undefined;
  } catch (error) {
    return codeOf(error) === 'ENOENT' && !fs.existsSync(lockPath) ? 'gone' : undefined;
  }
}

function ageMs(lockPath: string): number {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/** docs/config.md ("Locks"): of the runs that judged `judged`'s lock stale, one moves it. */
function takeOver(lockPath: string, judged: LockHolder | undefined): void {
  const claim = path.join(lockPath, 'takeover');
  try {
    fs.mkdirSync(claim);
  } catch (error) {
    // A lock file (not a folder) of an older leadctl's sync: unlink never removes a folder.
    if (codeOf(error) === 'ENOTDIR') tryFs(() => fs.unlinkSync(lockPath), 'ENOENT', 'EISDIR', 'EPERM');
    else if (codeOf(error) !== 'EEXIST' && codeOf(error) !== 'ENOENT') throw error;
    return;
  }
  const found = readHolder(lockPath);
  if (found === 'gone' || found?.token !== judged?.token) {
    tryFs(() => fs.rmdirSync(claim), 'ENOENT');
    return;
  }
  const aside = `${lockPath}.${process.pid}.${randomPart()}.old`;
  if (tryFs(() => fs.renameSync(lockPath, aside), 'ENOENT'))
    fs.rmSync(aside, { recursive: true, force: true });
}

/** Runs `act`: true if it succeeded, false if it failed with one of `codes`; other errors pass. */
function tryFs(act: () => void, ...codes: string[]): boolean {
  try {
    act();
    return true;
  } catch (error) {
    if (codes.includes(codeOf(error) ?? '')) return false;
    throw error;
  }
}

/** kill(pid, 0) checks without signalling: ESRCH is no such process; EPERM is someone else's, alive. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

const codeOf = (error: unknown) => (error as { code?: string }).code;

const randomPart = () => Math.random().toString(36).slice(2, 10);

const pause = (ms: number, signal?: AbortSignal) =>
  wait(ms, undefined, { signal }).catch(() => signal?.throwIfAborted());
