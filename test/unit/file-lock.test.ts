// The lock between leadctl processes (config/file-lock.ts), on real folders with a fake clock: held
// only while the work runs, waited for with a growing backoff, taken over when stale, given up after
// WAIT_MS, and never released by a holder that kept it so long that another may have taken it.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffMs,
  describeHolder,
  FileHeldError,
  FileLockedError,
  FileLockLostError,
  holdFileLock,
  STALE_MS,
  WAIT_MS,
  withFileLock,
} from '../../src/config/file-lock.js';
import { tempDir } from '../helpers/temp.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A sleep that only moves the fake clock, and remembers what it was asked for. */
function fakeSleep(onSleep: (count: number) => void = () => {}) {
  const asked: number[] = [];
  const sleep = async (ms: number) => {
    asked.push(ms);
    vi.setSystemTime(Date.now() + ms);
    onSleep(asked.length);
  };
  return { sleep, asked };
}

describe('withFileLock', () => {
  it('holds <file>.lock, a folder, exactly while the work runs, and returns its value', async () => {
    const file = join(tempDir('lock'), 'usage.json');
    const { sleep, asked } = fakeSleep();
    const value = await withFileLock(
      file,
      () => {
        expect(statSync(`${file}.lock`).isDirectory()).toBe(true);
        return 42;
      },
      { sleep },
    );
    expect(value).toBe(42);
    expect(asked).toEqual([]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('releases the lock when the work throws, and passes the error on', async () => {
    const file = join(tempDir('lock'), 'config.json');
    const failure = new Error('refused');
    await expect(
      withFileLock(file, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits for another holder, with a growing backoff, and takes the lock once it is released', async () => {
    const file = join(tempDir('lock'), 'config.json');
    mkdirSync(`${file}.lock`);
    // The other holder finishes during our third wait.
    const { sleep, asked } = fakeSleep((count) => {
      if (count === 3) rmdirSync(`${file}.lock`);
    });
    let ran = false;
    await withFileLock(
      file,
      () => {
        ran = true;
      },
      { sleep },
    );
    expect(ran).toBe(true);
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBeGreaterThanOrEqual(10);
    expect(asked[0]).toBeLessThan(20);
    expect(asked[2]).toBeGreaterThanOrEqual(10 * 1.3 ** 2);
  });

  it('gives up after WAIT_MS with ELOCKED, leaving the other holder its lock', async () => {
    const file = join(tempDir('lock'), 'config.json');
    mkdirSync(`${file}.lock`);
    // The holder is alive: it keeps its lock fresh.
    const { sleep, asked } = fakeSleep(() => utimesSync(`${file}.lock`, new Date(), new Date()));
    const started = Date.now();
    const error = await withFileLock(file, () => 'never', { sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockedError);
    expect((error as FileLockedError).code).toBe('ELOCKED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
    expect(Date.now() - started).toBeLessThan(WAIT_MS + 500);
    expect(asked.length).toBeGreaterThan(20);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it('takes over a lock older than STALE_MS (left by a killed process) at once', async () => {
    const file = join(tempDir('lock'), 'usage.json');
    mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(`${file}.lock`, old, old);
    const { sleep, asked } = fakeSleep();
    expect(await withFileLock(file, () => 'mine', { sleep })).toBe('mine');
    expect(asked).toEqual([]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('check() refuses a write after holding the lock past STALE_MS, and the lock is left to go stale', async () => {
    const file = join(tempDir('lock'), 'usage.json');
    let wrote = false;
    const error = await withFileLock(file, (lock) => {
      lock.check();
      vi.setSystemTime(Date.now() + STALE_MS);
      lock.check();
      wrote = true;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockLostError);
    expect(wrote).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });
});

describe('backoffMs', () => {
  it('starts at 10 ms, grows by 1.3x, stops at 250 ms, and spreads each wait over 1x to 2x', () => {
    expect(backoffMs(0, () => 0)).toBe(10);
    expect(backoffMs(1, () => 0)).toBeCloseTo(13);
    expect(backoffMs(0, () => 0.5)).toBe(15);
    expect(backoffMs(30, () => 0)).toBe(250);
    expect(backoffMs(30, () => 0.999)).toBeCloseTo(499.75);
  });
});

describe('holdFileLock (a lock held for a whole run)', () => {
  const holderOf = (file: string) => JSON.parse(readFileSync(join(`${file}.lock`, 'owner.json'), 'utf8'));
  const plant = (file: string, owner: Record<string, unknown>) => {
    mkdirSync(`${file}.lock`);
    writeFileSync(join(`${file}.lock`, 'owner.json'), JSON.stringify(owner));
  };

  it('records pid, host and start time, refuses a second holder naming the first, and frees on release', () => {
    const file = join(tempDir('lock'), 'cp.json');
    vi.setSystemTime(Date.UTC(2026, 10, 25, 3, 41, 7));
    const lock = holdFileLock(file, { host: 'here' });
    expect(holderOf(file)).toMatchObject({
      pid: process.pid,
      host: 'here',
      startedAt: '2026-11-25T03:41:07.000Z',
    });
    let refusal: unknown;
    try {
      holdFileLock(file, { host: 'here' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(FileHeldError);
    expect(describeHolder((refusal as FileHeldError).holder)).toMatch(
      new RegExp(`^pid ${process.pid}( on here)?, started 2026-11-25 03:41:07 UTC$`),
    );
    lock.release();
    expect(readdirSync(dirname(file))).toEqual([]);
  });

  it('takes over the lock of a dead pid, however young, and never a live one, however old', () => {
    const file = join(tempDir('lock'), 'cp.json');
    plant(file, { pid: 111, host: 'here', startedAt: '2026-11-25T03:00:00.000Z', token: 'dead' });
    const lock = holdFileLock(file, { host: 'here', isAlive: (pid) => pid !== 111 });
    expect(holderOf(file).pid).toBe(process.pid);
    lock.release();

    plant(file, { pid: 222, host: 'here', startedAt: '2020-01-01T00:00:00.000Z', token: 'live' });
    utimesSync(`${file}.lock`, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(() => holdFileLock(file, { host: 'here', isAlive: () => true })).toThrow(FileHeldError);
    expect(holderOf(file).token).toBe('live');
  });

  it('never judges a pid of another host', () => {
    const file = join(tempDir('lock'), 'cp.json');
    plant(file, { pid: 333, host: 'elsewhere', startedAt: '2026-11-25T03:00:00.000Z', token: 't' });
    expect(() => holdFileLock(file, { host: 'here', isAlive: () => false })).toThrow(FileHeldError);
  });

  it('a folder without an owner is in the making (held) until STALE_MS, then taken over', () => {
    const file = join(tempDir('lock'), 'cp.json');
    mkdirSync(`${file}.lock`);
    expect(() => holdFileLock(file, { host: 'here' })).toThrow(FileHeldError);
    // Past STALE_MS by the folder's own mtime (the real clock's; each attempt touches the folder), with
    // a second to spare for the real time a loaded run takes: the fake clock starts at the real now.
    vi.setSystemTime(statSync(`${file}.lock`).mtimeMs + STALE_MS + 1_000);
    holdFileLock(file, { host: 'here' }).release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('release() leaves alone a lock that another run has taken since', () => {
    const file = join(tempDir('lock'), 'cp.json');
    const lock = holdFileLock(file, { host: 'here' });
    rmSync(`${file}.lock`, { recursive: true });
    plant(file, { pid: 444, host: 'here', startedAt: '2026-11-25T03:00:00.000Z', token: 'theirs' });
    lock.release();
    expect(holderOf(file).token).toBe('theirs');
  });
});
