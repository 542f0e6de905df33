// The walk's phases seen from outside: where the pipelined window begins, by the requests in flight.
import { expect, it } from 'vitest';
import { ProtocolError } from '../../src/api/errors.js';
import { type FetchPage, paginatePages } from '../../src/api/paging/index.js';
import { type FakeLead, FakeList, FakeServer, flush } from './paginate-fake-server.js';

it('asks for page 2 of a two-page list before handing out page 1, so writing overlaps its latency', async () => {
  const server = new FakeServer(new FakeList(15));
  const pages = paginatePages(server.fetchPage, { limit: 10, concurrency: 4 })[Symbol.asyncIterator]();
  const first = pages.next();
  await flush();
  server.calls[0]?.respond();
  const batch = await first;
  expect(batch.value).toHaveLength(10);
  expect(server.calls.map((call) => `${call.page}:${call.limit}`)).toEqual(['1:10', '2:10']);
  await pages.return?.(undefined);
});

it('reads a one-page list with one request and opens no window', async () => {
  const server = new FakeServer(new FakeList(10));
  server.autoRespond = () => {};
  const batches = [];
  for await (const batch of paginatePages(server.fetchPage, { limit: 10, concurrency: 4 }))
    batches.push(batch);
  expect(batches.flat()).toHaveLength(10);
  expect(server.calls.map((call) => `${call.page}:${call.limit}`)).toEqual(['1:10']);
});

it('reads an odd page once more, then stops on it', async () => {
  const list = new FakeList(25);
  const asked: number[] = [];
  const fetchPage: FetchPage<FakeLead> = async (page, limit) => {
    asked.push(page);
    const result = list.page(page, limit);
    return page === 2 ? { ...result, items: result.items.slice(0, 5) } : result;
  };
  const run = (async () => {
    for await (const _batch of paginatePages(fetchPage, { limit: 10, concurrency: 1 })) {
      // drained
    }
  })();
  await expect(run).rejects.toThrow(ProtocolError);
  expect(asked).toEqual([1, 2, 2]);
});

it('says nothing at the end of a list that held still', async () => {
  const server = new FakeServer(new FakeList(35));
  server.autoRespond = () => {};
  const notices: string[] = [];
  const options = { limit: 10, concurrency: 4, onNotice: (message: string) => notices.push(message) };
  const items = [];
  for await (const batch of paginatePages(server.fetchPage, options)) items.push(...batch);
  expect(items).toHaveLength(35);
  expect(notices).toEqual([]);
});

it('stops at once on a total of -1, which is not a count', async () => {
  const list = new FakeList(5);
  const fetchPage: FetchPage<FakeLead> = async (page, limit) => {
    const result = list.page(page, limit);
    return { ...result, meta: { ...result.meta, total: -1 } };
  };
  const run = (async () => {
    for await (const _batch of paginatePages(fetchPage, { limit: 10 })) {
      // drained
    }
  })();
  await expect(run).rejects.toThrow('meta.total -1, which is not a count');
});
