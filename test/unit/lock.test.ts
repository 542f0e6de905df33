// The one lock between leadctl processes (src/lock.ts), on real folders: a short hold waited for
// with a growing backoff and given up after WAIT_MS; a whole-run hold that names its holder; the one
// takeover rule (a dead pid at once, an age past the stale time, an ownerless lock past STALE_MS);
// and the races, with two real processes taking over one dead lock at the same time.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
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
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  backoffMs,
  LockedError,
  LockLostError,
  STALE_MS,
  takeLock,
  WAIT_MS,
  WHOLE_RUN,
  withLock,
} from '../../src/lock.js';
import { tempDir } from '../helpers/temp.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A sleep that only moves the fake clock, and remembers what it was asked for. */
function fakeSleep(onSleep: (count: number) => void = () => {}) {
  vi.useFakeTimers({ toFake: ['Date'] });
  const asked: number[] = [];
  const sleep = async (ms: number) => {
    asked.push(ms);
    vi.setSystemTime(Date.now() + ms);
    onSleep(asked.length);
  };
  return { sleep, asked };
}

/** A pid that ran and ended (not reused within a test, in practice). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;
const ownerOf = (lock: string) => JSON.parse(readFileSync(join(lock, 'owner.json'), 'utf8'));
const plant = (lock: string, owner: Record<string, unknown>) => {
  mkdirSync(lock);
  writeFileSync(join(lock, 'owner.json'), JSON.stringify(owner));
};
const refusal = (taking: Promise<unknown>) =>
  taking.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a short hold (the config, the usage ledger)', () => {
  it('holds the folder, naming its owner, exactly while the work runs, and returns its value', async () => {
    const lock = join(tempDir('lock'), 'usage.json.lock');
    const { sleep, asked } = fakeSleep();
    const value = await withLock(lock, { sleep }, () => {
      expect(statSync(lock).isDirectory()).toBe(true);
      expect(ownerOf(lock)).toMatchObject({ pid: process.pid, host: hostname() });
      return 42;
    });
    expect(value).toBe(42);
    expect(asked).toEqual([]);
    expect(readdirSync(dirname(lock))).toEqual([]);
  });

  it('releases the lock when the work throws, and passes the error on', async () => {
    const lock = join(tempDir('lock'), 'config.json.lock');
    const failure = new Error('refused');
    await expect(
      withLock(lock, {}, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for another holder, with a growing backoff, and takes the lock once it is released', async () => {
    const lock = join(tempDir('lock'), 'config.json.lock');
    mkdirSync(lock);
    // The other holder (an older leadctl's bare folder) finishes during our third wait.
    const { sleep, asked } = fakeSleep((count) => {
      if (count === 3) rmdirSync(lock);
    });
    expect(await withLock(lock, { sleep }, () => 'ran')).toBe('ran');
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBeGreaterThanOrEqual(10);
    expect(asked[0]).toBeLessThan(20);
    expect(asked[2]).toBeGreaterThanOrEqual(10 * 1.3 ** 2);
  });

  it('gives up after WAIT_MS with ELOCKED, leaving the other holder its lock', async () => {
    const lock = join(tempDir('lock'), 'config.json.lock');
    plant(lock, { pid: process.pid, host: hostname(), startedAt: 'then', token: 'live' });
    // The holder is alive, and its lock stays young.
    const { sleep, asked } = fakeSleep(() => utimesSync(lock, new Date(), new Date()));
    const started = Date.now();
    const error = await refusal(withLock(lock, { sleep }, () => 'never'));
    expect(error).toBeInstanceOf(LockedError);
    expect(error).toMatchObject({ code: 'ELOCKED', lockPath: lock, holder: { pid: process.pid } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
    expect(Date.now() - started).toBeLessThan(WAIT_MS + 500);
    expect(asked.length).toBeGreaterThan(20);
    expect(ownerOf(lock).token).toBe('live');
  });

  it('takes over at once a lock older than STALE_MS, or one whose pid is dead however young', async () => {
    const lock = join(tempDir('lock'), 'usage.json.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(lock, old, old);
    const { sleep, asked } = fakeSleep();
    expect(await withLock(lock, { sleep }, () => 'mine')).toBe('mine');
    plant(lock, { pid: deadPid(), host: hostname(), startedAt: 'now', token: 'dead' });
    expect(await withLock(lock, { sleep }, () => 'mine again')).toBe('mine again');
    expect(asked).toEqual([]);
    expect(existsSync(lock)).toBe(false);
  });

  it('check() refuses a write after holding the lock past STALE_MS, and the lock is left to go stale', async () => {
    const lock = join(tempDir('lock'), 'usage.json.lock');
    let wrote = false;
    const error = await refusal(
      withLock(lock, {}, (held) => {
        held.check();
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + STALE_MS);
        held.check();
        wrote = true;
      }),
    );
    expect(error).toBeInstanceOf(LockLostError);
    expect(wrote).toBe(false);
    expect(existsSync(lock)).toBe(true);
  });

  it('backoffMs starts at 10 ms, grows by 1.3x, stops at 250 ms, and spreads each wait over 1x to 2x', () => {
    expect(backoffMs(0, () => 0)).toBe(10);
    expect(backoffMs(1, () => 0)).toBeCloseTo(13);
    expect(backoffMs(0, () => 0.5)).toBe(15);
    expect(backoffMs(30, () => 0)).toBe(250);
    expect(backoffMs(30, () => 0.999)).toBeCloseTo(499.75);
  });
});

describe('a whole-run hold (a checkpoint, a batch state, a sync)', () => {
  it('records pid, host, start time and command, refuses a second holder naming the first, and frees on release', async () => {
    const lock = join(tempDir('lock'), 'cp.json.lock');
    const held = await takeLock(lock, { ...WHOLE_RUN, command: 'leadctl sync' });
    const owner = ownerOf(lock);
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), command: 'leadctl sync' });
    expect(Math.abs(Date.parse(owner.startedAt) - Date.now())).toBeLessThan(60_000);
    const error = await refusal(takeLock(lock, WHOLE_RUN));
    expect(error).toBeInstanceOf(LockedError);
    expect((error as LockedError).holder).toEqual(owner);
    held.release();
    expect(readdirSync(dirname(lock))).toEqual([]);
  });

  it('takes over the lock of a dead pid, and never a live one, however old', async () => {
    const lock = join(tempDir('lock'), 'cp.json.lock');
    plant(lock, { pid: deadPid(), host: hostname(), startedAt: 'then', token: 'dead' });
    const held = await takeLock(lock, WHOLE_RUN);
    expect(ownerOf(lock).pid).toBe(process.pid);
    held.release();

    plant(lock, { pid: process.pid, host: hostname(), startedAt: '2020-01-01', token: 'live' });
    utimesSync(lock, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(await refusal(takeLock(lock, WHOLE_RUN))).toBeInstanceOf(LockedError);
    expect(ownerOf(lock).token).toBe('live');
  });

  it('never judges a pid of another host', async () => {
    const lock = join(tempDir('lock'), 'cp.json.lock');
    plant(lock, { pid: deadPid(), host: 'elsewhere', startedAt: 'then', token: 't' });
    expect(await refusal(takeLock(lock, WHOLE_RUN))).toBeInstanceOf(LockedError);
  });

  it('a lock without an owner is held until STALE_MS, then taken over; so is the lock file of an older sync', async () => {
    const dir = tempDir('lock');
    const lock = join(dir, 'cp.json.lock');
    mkdirSync(lock);
    expect(await refusal(takeLock(lock, WHOLE_RUN))).toMatchObject({ holder: undefined });
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(lock, old, old);
    (await takeLock(lock, WHOLE_RUN)).release();

    const file = join(dir, 'leads.db.default.lock');
    writeFileSync(file, JSON.stringify({ pid: deadPid(), host: hostname(), command: 'leadctl sync' }));
    expect(await refusal(takeLock(file, WHOLE_RUN))).toBeInstanceOf(LockedError);
    utimesSync(file, old, old);
    (await takeLock(file, WHOLE_RUN)).release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('release() leaves alone a lock that another run has taken since', async () => {
    const lock = join(tempDir('lock'), 'cp.json.lock');
    const held = await takeLock(lock, WHOLE_RUN);
    rmSync(lock, { recursive: true });
    plant(lock, { pid: 444, host: hostname(), startedAt: 'then', token: 'theirs' });
    held.release();
    expect(ownerOf(lock).token).toBe('theirs');
  });

  it('a wait for a live holder (the MCP search) lasts until the signal aborts it', async () => {
    const lock = join(tempDir('lock'), 'usage.json.mcp-search.lock');
    plant(lock, { pid: process.pid, host: hostname(), startedAt: 'then', token: 'live' });
    const stop = new AbortController();
    const { sleep, asked } = fakeSleep((count) => {
      if (count === 100) stop.abort(new Error('cancelled'));
    });
    const options = { staleMs: 10 * 60_000, waitMs: Number.POSITIVE_INFINITY, signal: stop.signal, sleep };
    const waiting = takeLock(lock, options);
    await expect(waiting).rejects.toThrow('cancelled');
    expect(asked).toHaveLength(100);
    expect(ownerOf(lock).token).toBe('live');
  });
});

// Two real processes take over one dead lock. Each may be slowed after every read of owner.json (as
// a loaded machine stalls a process between judging a lock and acting on it), and the second starts
// `offset` ms after the first. Both slowed, 50 ms apart: both judge the dead lock before either acts.
// The first slowed, the second not, 100 ms later: the second has replaced the dead lock with its own
// by the time the first acts on what it judged.
describe('two runs taking over one dead lock at the same time', () => {
  let moduleUrl = '';
  beforeAll(() => {
    const built = join(tempDir('lock-module'), 'lock.mjs');
    const source = readFileSync(resolve(import.meta.dirname, '../../src/lock.ts'), 'utf8');
    writeFileSync(built, transformSync(source, { loader: 'ts', format: 'esm' }).code);
    moduleUrl = pathToFileURL(built).href;
  });

  // Says "ready", waits for "go", tries the lock, says "won" or "lost", and on the end of its input
  // releases what it holds and exits.
  const CONTENDER = `
    import fs from 'node:fs';
    const [url, lockPath, slow] = process.argv.slice(1);
    const read = fs.readFileSync;
    fs.readFileSync = (...args) => {
      const text = read(...args);
      if (String(args[0]).endsWith('owner.json')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(slow));
      return text;
    };
    const { takeLock, LockedError } = await import(url);
    process.stdout.write('ready\\n');
    await new Promise((go) => process.stdin.once('data', go));
    let lock;
    try {
      lock = await takeLock(lockPath, { staleMs: Number.POSITIVE_INFINITY, waitMs: 0 });
      process.stdout.write('won\\n');
    } catch (error) {
      if (!(error instanceof LockedError)) throw error;
      process.stdout.write('lost\\n');
    }
    process.stdin.on('end', () => lock?.release()).resume();
  `;

  function contender(lockPath: string, slow: number) {
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      CONTENDER,
      moduleUrl,
      lockPath,
      `${slow}`,
    ]);
    const lines: string[] = [];
    const waiters: (() => void)[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      for (const wake of waiters.splice(0)) wake();
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const line = async (index: number): Promise<string> => {
      while (lines.length <= index) {
        const more = new Promise<void>((wake) => waiters.push(wake));
        if ((await Promise.race([more.then(() => 0), exited.then(() => 1)])) === 1 && lines.length <= index)
          throw new Error(`contender exited: ${stderr}`);
      }
      return lines[index] as string;
    };
    return { child: child as ChildProcessWithoutNullStreams, line, exited };
  }

  it.each([
    { slow: [0, 0], offset: 0 },
    { slow: [300, 300], offset: 50 },
    { slow: [300, 0], offset: 100 },
  ])('exactly one wins (reads slowed $slow ms, the second $offset ms later)', async ({ slow, offset }) => {
    const lock = join(tempDir('lock-race'), 'out.csv.state.lock');
    plant(lock, { pid: deadPid(), host: hostname(), startedAt: 'then', token: 'dead' });
    const runs = slow.map((ms) => contender(lock, ms));
    try {
      for (const run of runs) expect(await run.line(0)).toBe('ready');
      runs[0]?.child.stdin.write('go\n');
      await new Promise((wait) => setTimeout(wait, offset));
      runs[1]?.child.stdin.write('go\n');
      const verdicts = await Promise.all(runs.map((run) => run.line(1)));
      expect([...verdicts].sort()).toEqual(['lost', 'won']);
      const winner = runs[verdicts.indexOf('won')];
      expect(ownerOf(lock).pid).toBe(winner?.child.pid);
    } finally {
      for (const run of runs) run.child.stdin.end();
    }
    expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
    expect(readdirSync(dirname(lock))).toEqual([]);
  });
});
