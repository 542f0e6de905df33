import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { type FetchPage, type PageProgress, paginate } from '../../src/api/paging/index.js';
import { type FakeLead, FakeList, FakeServer, leadWithSeq } from './paginate-fake-server.js';

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

function answeringServer(count: number): FakeServer {
  const server = new FakeServer(new FakeList(count));
  server.autoRespond = () => {};
  return server;
}

const seqsFrom = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => `lead-${from - index}`);

describe('paginate on a list that does not change', () => {
  for (const concurrency of [1, 4, 8]) {
    it(`yields every item once, newest first, at concurrency ${concurrency}`, async () => {
      const server = answeringServer(95);
      const items = await all(paginate(server.fetchPage, { limit: 10, concurrency }));
      expect(items.map((item) => item.id)).toEqual(seqsFrom(95, 1));
      expect(server.dataRequests()).toEqual(Array.from({ length: 10 }, (_, index) => `${index + 1}:10`));
    });
  }

  it('asks for every data page with the requested limit, then reads the head once', async () => {
    const server = answeringServer(40);
    await all(paginate(server.fetchPage, { limit: 7, concurrency: 3 }));
    expect(server.dataRequests()).toEqual(['1:7', '2:7', '3:7', '4:7', '5:7', '6:7']);
    expect(server.calls.map((call) => `${call.page}:${call.limit}`).at(-1)).toBe('1:100');
  });

  for (const concurrency of [2, 4, 8, 16]) {
    it(`spends pages + 1 requests on a long list that holds still, at concurrency ${concurrency}`, async () => {
      const server = answeringServer(1000);
      const items = await all(paginate(server.fetchPage, { limit: 5, concurrency }));
      expect(items).toHaveLength(1000);
      expect(server.dataRequests()).toHaveLength(200);
      expect(server.calls).toHaveLength(201);
    });
  }

  for (const concurrency of [2, 4, 8, 16]) {
    it(`spends only its pages when every pipelined item is older than the first page, at concurrency ${concurrency}`, async () => {
      // 1,000,000 leads within 10,000 requests: the times on pages 2.. vouch for the window.
      const server = answeringServer(1000);
      const items = await all(paginate(server.fetchPage, { limit: 5, concurrency, timeField: 'saved_at' }));
      expect(items).toHaveLength(1000);
      expect(server.calls).toHaveLength(200);
      expect(server.headReads()).toEqual([]);
    });
  }

  it('reads the head once when a pipelined item is as new as the newest on the first page', async () => {
    const list = new FakeList(40);
    const newest = list.items[0]?.saved_at;
    (list.items[22] as FakeLead).saved_at = newest as string;
    const server = new FakeServer(list);
    server.autoRespond = () => {};
    const items = await all(paginate(server.fetchPage, { limit: 7, concurrency: 3, timeField: 'saved_at' }));
    expect(items).toHaveLength(40);
    expect(server.dataRequests()).toEqual(['1:7', '2:7', '3:7', '4:7', '5:7', '6:7']);
    expect(server.headReads()).toHaveLength(1);
  });

  it('reads the head once when a pipelined item has no time', async () => {
    const list = new FakeList(40);
    (list.items[30] as FakeLead).saved_at = 'not a time';
    const server = new FakeServer(list);
    server.autoRespond = () => {};
    await all(paginate(server.fetchPage, { limit: 7, concurrency: 3, timeField: 'saved_at' }));
    expect(server.headReads()).toHaveLength(1);
  });

  it('makes no probe at concurrency 1', async () => {
    const server = answeringServer(40);
    await all(paginate(server.fetchPage, { limit: 10, concurrency: 1 }));
    expect(server.calls.map((call) => `${call.page}:${call.limit}`)).toEqual([
      '1:10',
      '2:10',
      '3:10',
      '4:10',
    ]);
  });

  it('yields nothing for an empty list, after one request', async () => {
    const server = answeringServer(0);
    expect(await all(paginate(server.fetchPage, { limit: 10 }))).toEqual([]);
    expect(server.calls).toHaveLength(1);
  });

  it('starts at startPage', async () => {
    const server = answeringServer(50);
    const items = await all(paginate(server.fetchPage, { limit: 10, startPage: 3, concurrency: 2 }));
    expect(items.map((item) => item.id)).toEqual(seqsFrom(30, 1));
    expect(server.dataRequests()).toEqual(['3:10', '4:10', '5:10']);
  });

  it('pages by the size the server reports when it caps the limit lower', async () => {
    const server = answeringServer(23);
    const capped: FetchPage<FakeLead> = (page, limit, signal) =>
      server.fetchPage(page, Math.min(limit, 5), signal);
    const items = await all(paginate(capped, { limit: 10, concurrency: 2 }));
    expect(items.map((item) => item.id)).toEqual(seqsFrom(23, 1));
  });

  it('reports progress after each page', async () => {
    const server = answeringServer(25);
    const reports: PageProgress[] = [];
    await all(paginate(server.fetchPage, { limit: 10, concurrency: 1, onProgress: (p) => reports.push(p) }));
    expect(reports).toEqual([
      { pagesFetched: 1, totalPages: 3, itemsYielded: 10, total: 25 },
      { pagesFetched: 2, totalPages: 3, itemsYielded: 20, total: 25 },
      { pagesFetched: 3, totalPages: 3, itemsYielded: 25, total: 25 },
    ]);
  });
});

describe('paginate stops early', () => {
  it('after maxItems, at concurrency 1, without a request beyond the page that completes it', async () => {
    const server = answeringServer(100);
    const items = await all(paginate(server.fetchPage, { limit: 10, concurrency: 1, maxItems: 25 }));
    expect(items.map((item) => item.id)).toEqual(seqsFrom(100, 76));
    expect(server.calls.map((call) => `${call.page}:${call.limit}`)).toEqual(['1:10', '2:10', '3:10']);
  });

  it('after maxItems, at concurrency 4, asking only for the pages maxItems needs', async () => {
    const server = answeringServer(100);
    const items = await all(paginate(server.fetchPage, { limit: 10, concurrency: 4, maxItems: 25 }));
    expect(items).toHaveLength(25);
    expect(server.dataRequests()).toEqual(['1:10', '2:10', '3:10']);
    expect(server.calls).toHaveLength(4); // and the head read that certifies page 3
  });

  it('after maxItems within the first page: one request', async () => {
    const server = answeringServer(100);
    const items = await all(paginate(server.fetchPage, { limit: 10, concurrency: 8, maxItems: 4 }));
    expect(items.map((item) => item.id)).toEqual(seqsFrom(100, 97));
    expect(server.calls).toHaveLength(1);
  });

  it('with maxItems 0, before any request', async () => {
    const server = answeringServer(10);
    expect(await all(paginate(server.fetchPage, { limit: 10, maxItems: 0 }))).toEqual([]);
    expect(server.calls).toHaveLength(0);
  });

  it('at the first item not newer than since, without requesting the page after it', async () => {
    const server = answeringServer(50);
    const since = new Date(leadWithSeq(30).saved_at);
    const options = { limit: 10, concurrency: 1, since, timeField: 'saved_at' };
    const items = await all(paginate(server.fetchPage, options));
    expect(items.map((item) => item.id)).toEqual(seqsFrom(50, 31));
    expect(server.dataRequests()).toEqual(['1:10', '2:10', '3:10']);
  });

  it('at since even when older items would follow newer ones again', async () => {
    const list = new FakeList(0);
    list.items = [leadWithSeq(9), leadWithSeq(2), leadWithSeq(8)];
    const server = new FakeServer(list);
    server.autoRespond = () => {};
    const since = new Date(leadWithSeq(5).saved_at);
    const items = await all(paginate(server.fetchPage, { limit: 10, since, timeField: 'saved_at' }));
    expect(items.map((item) => item.id)).toEqual(['lead-9']);
  });

  it('keeps items whose timestamp cannot be read', async () => {
    const list = new FakeList(3);
    const middle = list.items[1];
    if (middle) middle.saved_at = 'not a date';
    const server = new FakeServer(list);
    server.autoRespond = () => {};
    const since = new Date(leadWithSeq(1).saved_at);
    const items = await all(paginate(server.fetchPage, { limit: 10, since, timeField: 'saved_at' }));
    expect(items.map((item) => item.id)).toEqual(['lead-3', 'lead-2']);
  });
});

describe('paginate options', () => {
  const fetchNothing: FetchPage<FakeLead> = async () => ({
    items: [],
    meta: { page: 1, limit: 10, total: 0, totalPages: 0 },
  });
  it.each([
    { limit: 0 },
    { limit: 101 },
    { limit: 2.5 },
    { limit: 10, concurrency: 0 },
    { limit: 10, concurrency: 17 },
    { limit: 10, startPage: 0 },
    { limit: 10, maxItems: -1 },
    { limit: 10, since: new Date(0) },
    { limit: 10, since: new Date(Number.NaN), timeField: 'saved_at' },
  ])('refuses %o with a UsageError on the first next(), never a synchronous throw', async (options) => {
    const pages = paginate(fetchNothing, options);
    await expect(pages[Symbol.asyncIterator]().next()).rejects.toThrow(UsageError);
  });
});
