// Cancellation, failures and backpressure: nothing keeps running once the run is over, and a slow
// consumer never makes pages pile up.

import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenForAbort } from '../../src/api/errors.js';
import { paginate } from '../../src/api/paging/index.js';
import { collect, FakeList, FakeServer, flush } from './paginate-fake-server.js';

/** Answers page 1 and lets pages 2-5 (a round at concurrency 4) be requested, without answering them. */
async function roundInFlight(server: FakeServer): Promise<void> {
  await flush();
  server.calls[0]?.respond();
  await flush();
}

describe('paginate cancellation', () => {
  it('rejects with an AbortedError caused by the reason, and aborts every request in flight', async () => {
    const server = new FakeServer(new FakeList(50));
    const controller = new AbortController();
    const run = collect(paginate(server.fetchPage, { limit: 10, concurrency: 4, signal: controller.signal }));
    await roundInFlight(server);
    expect(server.open().map((call) => call.page)).toEqual([2, 3, 4, 5]);
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(run.done).rejects.toMatchObject({ name: 'AbortedError', exitCode: 130, cause: reason });
    expect(server.calls.slice(1).map((call) => call.state)).toEqual([
      'aborted',
      'aborted',
      'aborted',
      'aborted',
    ]);
  });

  it('rejects at once when fetchPage ignores the signal', async () => {
    const controller = new AbortController();
    const run = collect(
      paginate(() => new Promise<never>(() => {}), { limit: 10, concurrency: 2, signal: controller.signal }),
    );
    await flush();
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(run.done).rejects.toMatchObject({ name: 'AbortedError', cause: reason });
  });

  it('rejects without a request when the signal is already aborted', async () => {
    const server = new FakeServer(new FakeList(5));
    const controller = new AbortController();
    const reason = new Error('too late');
    controller.abort(reason);
    const run = collect(paginate(server.fetchPage, { limit: 10, signal: controller.signal }));
    await expect(run.done).rejects.toMatchObject({ name: 'AbortedError', cause: reason });
    expect(server.calls).toHaveLength(0);
  });

  it('aborts the requests in flight when the consumer breaks out early', async () => {
    const server = new FakeServer(new FakeList(50));
    const iterator = paginate(server.fetchPage, { limit: 10, concurrency: 4 })[Symbol.asyncIterator]();
    const first = iterator.next();
    await roundInFlight(server);
    expect((await first).value?.id).toBe('lead-50');
    for (let index = 0; index < 10; index += 1) {
      const next = iterator.next();
      await flush();
      if (index === 9) server.open()[0]?.respond(); // the 11th item needs page 2
      await next;
    }
    expect(server.open().map((call) => call.page)).toEqual([3, 4, 5]);
    await iterator.return?.();
    expect(server.calls.slice(2).map((call) => call.state)).toEqual(['aborted', 'aborted', 'aborted']);
  });

  it('aborts the pages after the one where since cuts the list', async () => {
    const server = new FakeServer(new FakeList(50));
    const since = new Date(Date.UTC(2026, 0, 1) + 33 * 60_000); // lead-33's time: page 2 holds it
    const run = collect(
      paginate(server.fetchPage, { limit: 10, concurrency: 4, since, timeField: 'saved_at' }),
    );
    await roundInFlight(server);
    server.open()[0]?.respond();
    await expect(run.done).resolves.toHaveLength(17);
    expect(server.calls.map((call) => call.state)).toEqual([
      'delivered',
      'delivered',
      ...Array(3).fill('aborted'),
    ]);
  });
});

describe('paginate failures', () => {
  it('surfaces the first failure and aborts its siblings', async () => {
    const server = new FakeServer(new FakeList(50));
    const run = collect(paginate(server.fetchPage, { limit: 10, concurrency: 4 }));
    await roundInFlight(server);
    const boom = new Error('boom');
    server.open()[1]?.fail(boom); // page 3 fails while 2, 4 and 5 are in flight
    await expect(run.done).rejects.toBe(boom);
    expect(server.calls.map((call) => call.state)).toEqual([
      'delivered',
      'aborted',
      'failed',
      'aborted',
      'aborted',
    ]);
  });

  it('surfaces a failure of the first page', async () => {
    const run = collect(paginate(() => Promise.reject(new Error('401')), { limit: 10 }));
    await expect(run.done).rejects.toThrow('401');
  });
});

describe('paginate backpressure', () => {
  // Pages sent but not handed out yet: four windows (4 x 4).
  const HOLD_LIMIT = 4 * 4;

  it('reads ahead while the consumer holds the first page, up to the hold limit and no further', async () => {
    const server = new FakeServer(new FakeList(500));
    server.autoRespond = () => {};
    const iterator = paginate(server.fetchPage, { limit: 10, concurrency: 4 })[Symbol.asyncIterator]();
    await iterator.next(); // the first item of page 1; the consumer asks for nothing more
    await flush();
    // The window went out with page 1's answer and refilled with every answer after it, until the
    // pages waiting for the consumer reached the hold limit.
    const pages = Array.from({ length: 1 + HOLD_LIMIT }, (_, index) => `${index + 1}:10`);
    expect(server.dataRequests()).toEqual(pages);
    await iterator.return?.();
  });

  it('sends nothing past page 1 when page 1 alone ends the run', async () => {
    const server = new FakeServer(new FakeList(500));
    server.autoRespond = () => {};
    const items = [];
    for await (const item of paginate(server.fetchPage, { limit: 10, concurrency: 4, maxItems: 10 })) {
      items.push(item);
    }
    expect(items).toHaveLength(10);
    expect(server.calls.map((call) => `${call.page}:${call.limit}`)).toEqual(['1:10']);
  });

  it('holds at most four windows of pages ahead of a slow consumer', async () => {
    const server = new FakeServer(new FakeList(2000));
    server.autoRespond = () => {};
    const iterator = paginate(server.fetchPage, { limit: 10, concurrency: 4 })[Symbol.asyncIterator]();
    let pulled = 0;
    let mostAhead = 0;
    for (let index = 0; index < 950; index += 1) {
      await iterator.next();
      pulled += 1;
      await flush();
      const ahead = server.dataRequests().length - Math.ceil((pulled + 1) / 10);
      mostAhead = Math.max(mostAhead, ahead);
    }
    expect(mostAhead).toBeLessThanOrEqual(HOLD_LIMIT);
    expect(mostAhead).toBeGreaterThan(4); // it does run ahead: a sliding window, not rounds
    await iterator.return?.();
  });
});

describe('listenForAbort', () => {
  it('calls back with the reason once, and nothing after stop()', () => {
    const controller = new AbortController();
    const reasons: unknown[] = [];
    listenForAbort(controller.signal, (reason) => reasons.push(reason));
    controller.abort('stop');
    controller.abort('again');
    expect(reasons).toEqual(['stop']);

    const later = new AbortController();
    const stop = listenForAbort(later.signal, (reason) => reasons.push(reason));
    stop();
    later.abort('too late');
    expect(reasons).toEqual(['stop']);
    expect(getEventListeners(later.signal, 'abort')).toHaveLength(0);
  });

  it('lets go of the callback once stopped, even where the removed listener is still held', () => {
    // Node keeps a removed listener linked to its neighbours: whatever still reaches it must not reach
    // the callback (and what that holds, a page of leads).
    const controller = new AbortController();
    const reasons: unknown[] = [];
    const stop = listenForAbort(controller.signal, (reason) => reasons.push(reason));
    const [listener] = getEventListeners(controller.signal, 'abort') as ((event?: Event) => void)[];
    stop();
    listener?.();
    expect(listener).toBeTypeOf('function');
    expect(reasons).toEqual([]);
  });

  it('does nothing without a signal', () => {
    expect(() => listenForAbort(undefined, () => {})()).not.toThrow();
  });
});
