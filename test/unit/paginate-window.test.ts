// The pipelined window's own checks (src/api/paging/requests.ts): what it sends once dropped, and the
// misuse it refuses. The walk's boundaries are in paginate-boundaries.test.ts.
import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/api/paging/index.js';
import { PageWindow } from '../../src/api/paging/requests.js';
import { collect, FakeList, FakeServer, flush } from './paginate-fake-server.js';

const range = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => `lead-${from - index}`);

it('sends nothing more once a page disagrees and the window is dropped', async () => {
  // Page 2 sees a save (its total disagrees) while page 3 is in flight: page 3 is cancelled and no
  // page after it is sent by the window; the careful walk goes on by itself.
  const server = new FakeServer(new FakeList(60));
  const run = collect(paginate(server.fetchPage, { limit: 10, concurrency: 2 }));
  await flush();
  server.calls[0]?.respond();
  await flush();
  server.list.insert(1);
  server.calls.find((call) => call.page === 2)?.respond();
  await flush();
  for (let turn = 0; turn < 50 && !run.finished(); turn += 1) {
    server.open()[0]?.respond();
    await flush();
  }
  expect((await run.done).map((item) => item.id)).toEqual(range(60, 1));
  expect(server.calls.map((call) => `${call.page}:${call.state}`)).toEqual([
    ...['1:delivered', '2:delivered', '3:aborted', '4:aborted'],
    ...['3:delivered', '4:delivered', '5:delivered', '6:delivered', '7:delivered'],
  ]);
});

describe('PageWindow', () => {
  const group = () => {
    const sent: number[] = [];
    const fetch = (page: number) => {
      sent.push(page);
      return Promise.resolve(new FakeList(30).page(page, 10));
    };
    return { sent, requests: { fetch, discard: () => {} } };
  };
  const plan = { first: 2, last: 3, limit: 10, width: 2, hold: 8 };

  it('refuses a page taken out of order', () => {
    const window = new PageWindow(group().requests, plan);
    expect(() => window.take(3)).toThrow('paging: page 3 taken out of order');
  });

  it('refuses a page it never requested, past its last', async () => {
    const { sent, requests } = group();
    const window = new PageWindow(requests, plan);
    await window.take(2);
    await window.take(3);
    expect(sent).toEqual([2, 3]);
    expect(() => window.take(4)).toThrow('paging: page 4 was never requested');
  });
});
