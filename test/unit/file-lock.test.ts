// The lock between leadctl processes (config/file-lock.ts), on real folders with a fake clock: held
// only while the work runs, waited for with a growing backoff, taken over when stale, given up after
// WAIT_MS, and never released by a holder that kept it so long that another may have taken it.
import { existsSync, mkdirSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffMs,
  FileLockedError,
  FileLockLostError,
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
