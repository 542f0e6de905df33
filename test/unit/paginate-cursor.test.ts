import { describe, expect, it } from 'vitest';
import { coveredAt, judgePage } from '../../src/api/page-cursor.js';
import { planRound } from '../../src/api/page-plan.js';

type Item = { id: string };
const items = (...ids: string[]): Item[] => ids.map((id) => ({ id }));
const idOf = (item: Item) => item.id;
const ids = (list: Item[]) => list.map((item) => item.id);

describe('coveredAt', () => {
  it('keeps the cursor when the list grew (inserts only push items back)', () => {
    expect(coveredAt({ covered: 20, total: 100 }, 130)).toBe(20);
  });
  it('moves the cursor back by as much as the list shrank', () => {
    expect(coveredAt({ covered: 20, total: 100 }, 97)).toBe(17);
  });
  it('never goes below 0', () => {
    expect(coveredAt({ covered: 20, total: 100 }, 10)).toBe(0);
  });
});

describe('judgePage', () => {
  it('refuses a page that starts past what is proven', () => {
    const verdict = judgePage(
      { covered: 10, total: 30 },
      { page: 3, items: items('x'), total: 29 },
      5,
      new Set(),
      idOf,
    );
    expect(verdict).toMatchObject({ accepted: false, fresh: [], cursor: { covered: 9, total: 29 } });
  });

  it('skips positions already proven and marks the rest seen', () => {
    const seen = new Set<string>();
    const snapshot = { page: 2, items: items('a', 'b', 'c', 'd', 'e'), total: 20 };
    const verdict = judgePage({ covered: 7, total: 20 }, snapshot, 5, seen, idOf);
    expect(ids(verdict.fresh)).toEqual(['c', 'd', 'e']);
    expect([...seen]).toEqual(['c', 'd', 'e']);
    expect(verdict).toMatchObject({ accepted: true, done: false, cursor: { covered: 10, total: 20 } });
  });

  it('drops unseen items ahead of a seen one: they were saved during the run', () => {
    const snapshot = { page: 2, items: items('new', 'old', 'next'), total: 9 };
    const verdict = judgePage({ covered: 3, total: 9 }, snapshot, 3, new Set(['old']), idOf);
    expect(ids(verdict.fresh)).toEqual(['next']);
  });

  it('writes an id repeated within one page once', () => {
    const snapshot = { page: 1, items: items('a', 'a', 'b'), total: 3 };
    expect(ids(judgePage({ covered: 0, total: 3 }, snapshot, 3, new Set(), idOf).fresh)).toEqual(['a', 'b']);
  });

  it('keeps items without an id', () => {
    const snapshot = { page: 1, items: [{ id: '' }, { id: '' }], total: 2 };
    const verdict = judgePage({ covered: 0, total: 2 }, snapshot, 2, new Set(), () => undefined);
    expect(verdict.fresh).toHaveLength(2);
  });

  it('is done on a short page, and on a full page that reaches the total', () => {
    const short = judgePage(
      { covered: 4, total: 6 },
      { page: 2, items: items('e', 'f'), total: 6 },
      4,
      new Set(),
      idOf,
    );
    expect(short.done).toBe(true);
    const exact = judgePage(
      { covered: 4, total: 8 },
      { page: 2, items: items('e', 'f', 'g', 'h'), total: 8 },
      4,
      new Set(),
      idOf,
    );
    expect(exact.done).toBe(true);
  });
});

describe('planRound', () => {
  it('asks for up to `width` pages from the first page not proven', () => {
    expect(planRound({ covered: 25, total: 100 }, 10, 4, Number.POSITIVE_INFINITY).pages).toEqual([
      3, 4, 5, 6,
    ]);
  });
  it('stops at the last page of the total', () => {
    expect(planRound({ covered: 80, total: 95 }, 10, 4, Number.POSITIVE_INFINITY).pages).toEqual([9, 10]);
  });
  it('stops at the page that can complete maxItems', () => {
    expect(planRound({ covered: 10, total: 100 }, 10, 8, 15).pages).toEqual([2, 3]);
  });
  it('carries the cursor to a later total first', () => {
    expect(planRound({ covered: 30, total: 100 }, 10, 2, 100, 88).pages).toEqual([2, 3]);
    // Shrunk by 80: every position may have moved back to the front.
    expect(planRound({ covered: 30, total: 100 }, 10, 2, 100, 20).pages).toEqual([1, 2]);
    expect(planRound({ covered: 30, total: 30 }, 10, 2, 100, 25).pages).toEqual([]);
  });
});
