// A lock between leadctl processes on a file that is read, changed and replaced (the config, the
// usage ledger): a folder `<file>.lock`, made with mkdir, which succeeds for exactly one process. It
// is the lock proper-lockfile made for leadctl before, so older and newer leadctl runs exclude each
// other. The lock is held only while synchronous code runs (read, change, write, rename: a few ms), so
// no timer or signal handler of this process runs while it is held, and nothing needs to refresh it.
// A lock older than STALE_MS was left by a process that died holding it: the next writer takes over.
// (Two writers that find the same stale lock at the same moment may both take it, as with
// proper-lockfile; only a process killed within its few ms leaves one.)
import fs from 'node:fs';

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
