// The checkpoint walk on its own, against a list held in memory: what it writes and what it remembers
// when the server moves an item to the front, when the list changes between two pages, and when
// every remembered item is gone.
import { describe, expect, it } from 'vitest';
import type { FetchPage } from '../../src/api/paging/index.js';
import { findBoundary, incrementalPages } from '../../src/checkpoint/incremental.js';

type Item = { id: string };
const items = (...ids: string[]) => ids.map((id) => ({ id }));
const remembered = (...ids: string[]) => new Map(ids.map((id, index) => [id, index]));

function listServer(list: Item[], beforeEach?: (page: number) => void) {
  const calls: number[] = [];
  const fetchPage: FetchPage<Item> = async (page, limit) => {
    beforeEach?.(page);
    calls.push(page);
    return {
      items: list.slice((page - 1) * limit, page * limit),
      meta: { page, limit, total: list.length, totalPages: Math.ceil(list.length / limit) },
    };
  };
  return { fetchPage, calls };
}

async function walk(fetchPage: FetchPage<Item>, head: string[], limit = 2) {
  const run = incrementalPages(fetchPage, {
    limit,
    head,
    signal: new AbortController().signal,
    noun: 'leads',
  });
  const written: string[] = [];
  for await (const batch of run.pages) written.push(...batch.map((item) => item.id));
  return { written, next: run.result() };
}

describe('findBoundary', () => {
  it('is the first remembered id still in the remembered order', () => {
    expect(findBoundary(items('n1', 'a', 'b'), remembered('a', 'b'))).toBe(1);
    // b moved to the front (re-saved): it stands before a, which was remembered before it.
    expect(findBoundary(items('b', 'n1', 'a', 'c'), remembered('a', 'b', 'c'))).toBe(2);
    expect(findBoundary(items('n1', 'n2'), remembered('a'))).toBe(-1);
  });
});

describe('incrementalPages', () => {
  it('writes what stands in front of the boundary and remembers the newest end', async () => {
    const { fetchPage, calls } = listServer(items('n1', 'n2', 'n3', 'a', 'b', 'c'));
    const { written, next } = await walk(fetchPage, ['a', 'b', 'c']);
    expect(written).toEqual(['n1', 'n2', 'n3']);
    expect(calls).toEqual([1, 2]);
    expect(next.head.slice(0, 5)).toEqual(['n1', 'n2', 'n3', 'a', 'b']);
  });

  it('reads again from the top when the list changes between pages, writing nothing twice', async () => {
    const list = items('n1', 'n2', 'n3', 'a', 'b');
    // Before page 2 is read, the newest lead is deleted: page 2 now starts one item further on.
    const { fetchPage, calls } = listServer(list, (page) => {
      if (page === 2 && list[0]?.id === 'n1') list.shift();
    });
    const { written } = await walk(fetchPage, ['a', 'b']);
    expect(written).toEqual(['n1', 'n2', 'n3']);
    expect(calls).toEqual([1, 2, 1, 2]);
  });

  it('stops with an error when no remembered item is left (position cannot tell new from old)', async () => {
    const { fetchPage } = listServer(items('n1', 'x', 'y'));
    await expect(walk(fetchPage, ['a', 'b'])).rejects.toThrow(
      /none of the 2 newest leads the checkpoint remembers/,
    );
  });

  it('stops when the server answers a later page with the first one again (exit 7), rather than read on', async () => {
    const list = items('n1', 'n2', 'n3', 'n4', 'n5', 'a');
    const pageOne: FetchPage<Item> = async (_page, limit) => ({
      items: list.slice(0, limit),
      meta: { page: 1, limit, total: list.length, totalPages: 3 },
    });
    await expect(walk(pageOne, ['a'])).rejects.toThrow(
      /server answered page 2 with leads it had already sent/,
    );
  });

  it('with an empty checkpoint (the list was empty), everything is new', async () => {
    const { fetchPage } = listServer(items('n1', 'n2', 'n3'));
    expect((await walk(fetchPage, [])).written).toEqual(['n1', 'n2', 'n3']);
  });
});
