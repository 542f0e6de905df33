// The engine with searches whose completion the test controls: no timers, no sleeps.
import { describe, expect, it } from 'vitest';
import { type BatchEngineOptions, runBatchEngine, type SearchOutcome } from '../../src/batch/run-batch.js';

class RowRefused extends Error {}

/** Searches that wait until the test settles them, so any completion order can be staged. */
function controlledSearches() {
  const pending = new Map<number, { resolve: (r: number[]) => void; reject: (e: unknown) => void }>();
  let inFlight = 0;
  let maxInFlight = 0;
  const started: number[] = [];
  const waiters: Array<() => void> = [];
  const search = (row: number, signal: AbortSignal) =>
    new Promise<number[]>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      started.push(row);
      const done = () => {
        inFlight -= 1;
        pending.delete(row);
      };
      pending.set(row, {
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      signal.addEventListener('abort', () => pending.get(row)?.reject(signal.reason), { once: true });
      for (const wake of waiters.splice(0)) wake();
    });
  /** Resolves once `row` has been started. */
  const started$ = async (row: number) => {
    while (!pending.has(row)) await new Promise<void>((wake) => waiters.push(wake));
  };
  return {
    search,
    started,
    waitStarted: started$,
    maxInFlight: () => maxInFlight,
    succeed: async (row: number) => {
      await started$(row);
      pending.get(row)?.resolve([row * 10]);
    },
    fail: async (row: number, error: unknown) => {
      await started$(row);
      pending.get(row)?.reject(error);
    },
  };
}

function engine(rows: number[], overrides: Partial<BatchEngineOptions<number, number>> = {}) {
  const control = controlledSearches();
  const handed: Array<[number, SearchOutcome<number>]> = [];
  const controller = new AbortController();
  const running = runBatchEngine<number, number>({
    rows,
    startAt: 0,
    concurrency: 2,
    signal: controller.signal,
    search: control.search,
    isRowFailure: (e) => e instanceof RowRefused,
    onFinished: async (index, _row, outcome) => {
      handed.push([index, outcome]);
    },
    ...overrides,
  });
  return { control, handed, controller, running };
}

describe('runBatchEngine', () => {
  it('hands results on in input order however they finish, with at most `concurrency` in flight', async () => {
    const { control, handed, running } = engine([0, 1, 2, 3, 4], { concurrency: 3 });
    await control.succeed(2);
    await control.succeed(1);
    expect(handed).toEqual([]); // row 0 is still running: nothing may be written yet
    await control.succeed(0);
    await control.succeed(4);
    await control.succeed(3);
    const result = await running;
    expect(handed.map(([index]) => index)).toEqual([0, 1, 2, 3, 4]);
    expect(handed[4]?.[1]).toEqual({ kind: 'found', results: [40] });
    expect(control.maxInFlight()).toBe(3);
    expect(result).toEqual({ finished: 5, started: 5 });
  });

  it('starts no search more than twice `concurrency` rows past the first not handed on, so answers never pile up', async () => {
    const { control, handed, running } = engine([0, 1, 2, 3, 4, 5, 6, 7], { concurrency: 2 });
    for (const row of [1, 2, 3]) await control.succeed(row);
    // Row 0 is slow: rows 1 to 3 wait to be handed on behind it, and no fifth row may start.
    await new Promise((resolve) => setImmediate(resolve));
    expect(control.started).toEqual([0, 1, 2, 3]);
    await control.succeed(0);
    for (const row of [4, 5, 6, 7]) await control.succeed(row);
    expect((await running).finished).toBe(8);
    expect(handed.map(([index]) => index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('goes on after a refused row and hands the refusal on in its place', async () => {
    const { control, handed, running } = engine([0, 1, 2]);
    await control.fail(0, new RowRefused('422'));
    await control.succeed(1);
    await control.succeed(2);
    expect((await running).stop).toBeUndefined();
    expect(handed.map(([, outcome]) => outcome.kind)).toEqual(['refused', 'found', 'found']);
  });

  it('hands the rows in `skip` on as unknown in their place, never searching them', async () => {
    const { control, handed, running } = engine([0, 1, 2, 3], { skip: new Set([1, 2]) });
    await control.succeed(0);
    await control.succeed(3);
    const result = await running;
    expect(control.started).toEqual([0, 3]);
    expect(handed.map(([index, outcome]) => [index, outcome.kind])).toEqual([
      [0, 'found'],
      [1, 'unknown'],
      [2, 'unknown'],
      [3, 'found'],
    ]);
    expect(result).toEqual({ finished: 4, started: 2 });
  });

  it('records a search before it starts, and names every search a stop cut short', async () => {
    const recorded: number[] = [];
    const abandoned: Array<[number, unknown]> = [];
    const { control, controller, handed, running } = engine([0, 1, 2], {
      onStart: async (index) => {
        recorded.push(index);
      },
      onAbandoned: (index, _row, error) => abandoned.push([index, error]),
    });
    await control.waitStarted(1);
    expect(recorded).toEqual([0, 1]);
    controller.abort(new Error('Ctrl-C'));
    const result = await running;
    expect(result.stop).toEqual({ kind: 'interrupted' });
    expect(abandoned.map(([index]) => index).sort()).toEqual([0, 1]);
    expect(handed).toEqual([]);
  });

  it('a start that cannot be recorded stops the batch with nothing sent for that row', async () => {
    const full = new Error('ENOSPC');
    const { control, running } = engine([0, 1], {
      concurrency: 1,
      onStart: async (index) => {
        if (index === 1) throw full;
      },
    });
    await control.succeed(0);
    const result = await running;
    expect(result.stop).toEqual({ kind: 'error', error: full });
    expect(control.started).toEqual([0]);
  });

  /** A budget of `limit` requests: each start spends one, and so does each retry the test reports. */
  function budget(limit: number) {
    let spent = 0;
    const exceeded = new AbortController();
    return {
      options: {
        cap: { allowsStart: () => spent < limit, exceeded: exceeded.signal },
        onStart: () => {
          spent += 1;
        },
      },
      retry: () => {
        spent += 1;
        if (spent > limit) exceeded.abort();
      },
    };
  }

  it('starts no more searches than the budget allows and stops with request-cap while rows remain', async () => {
    const { options } = budget(3);
    const { control, handed, running } = engine([0, 1, 2, 3, 4], options);
    await control.succeed(0);
    await control.succeed(1);
    await control.succeed(2);
    const result = await running;
    expect(control.started).toEqual([0, 1, 2]);
    expect(handed).toHaveLength(3);
    expect(result).toEqual({ finished: 3, started: 3, stop: { kind: 'request-cap' } });
  });

  it('counts retries against the budget and stops before one would go over it', async () => {
    const { options, retry } = budget(3);
    const { control, handed, running } = engine([0, 1, 2, 3], options);
    await control.succeed(0);
    await control.waitStarted(2);
    retry(); // row 1 or 2 is retried: the 4th request would exceed the cap of 3
    const result = await running;
    expect(control.started).toEqual([0, 1, 2]);
    expect(handed.map(([index]) => index)).toEqual([0]);
    expect(result).toEqual({ finished: 1, started: 3, stop: { kind: 'request-cap' } });
  });

  it('on a batch-ending error starts nothing new but still writes the searches in flight', async () => {
    const quotaGone = new Error('429');
    const { control, handed, running } = engine([0, 1, 2, 3]);
    await control.succeed(1);
    await control.fail(0, quotaGone);
    const result = await running;
    expect(control.started).toEqual([0, 1]);
    // Row 1 finished but row 0 did not: writing it would leave a gap, so it is redone on resume.
    expect(handed).toEqual([]);
    expect(result).toEqual({ finished: 0, started: 2, stop: { kind: 'error', error: quotaGone } });
  });

  it('on abort stops starting searches and reports the interrupt', async () => {
    const { control, handed, controller, running } = engine([0, 1, 2, 3, 4, 5]);
    await control.succeed(0);
    await control.succeed(1);
    await control.waitStarted(2);
    await control.waitStarted(3);
    controller.abort(new Error('interrupted'));
    const result = await running;
    expect(result.stop).toEqual({ kind: 'interrupted' });
    expect(handed.map(([index]) => index)).toEqual([0, 1]);
    expect(result.finished).toBe(2);
    expect(control.started).toEqual([0, 1, 2, 3]);
  });

  it('resumes at startAt and stops handing on after a write failure', async () => {
    const writeFailed = new Error('disk full');
    const { control, handed, running } = engine([0, 1, 2, 3], {
      startAt: 2,
      concurrency: 1,
      onFinished: async (index) => {
        if (index === 2) throw writeFailed;
      },
    });
    await control.succeed(2);
    const result = await running;
    expect(control.started).toEqual([2]);
    expect(handed).toEqual([]);
    expect(result).toEqual({ finished: 2, started: 1, stop: { kind: 'error', error: writeFailed } });
  });
});
