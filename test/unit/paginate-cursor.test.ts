import { describe, expect, it } from 'vitest';
import { coveredAt, judgePage } from '../../src/api/page-cursor.js';
import { planRound } from '../../src/api/page-plan.js';
import { YieldedItems } from '../../src/api/page-yielded.js';

type Item = { id: string };
const items = (...ids: string[]): Item[] => ids.map((id) => ({ id }));
const idOf = (item: Item) => item.id;
const ids = (list: Item[]) => list.map((item) => item.id);
const writtenBefore =
  (...written: string[]) =>
  (item: Item) =>
    written.includes(item.id);
const none = writtenBefore();

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
      none,
      idOf,
    );
    expect(verdict).toMatchObject({ accepted: false, fresh: [], cursor: { covered: 9, total: 29 } });
  });

  it('skips positions already proven and items already written', () => {
    const snapshot = { page: 2, items: items('a', 'b', 'c', 'd', 'e'), total: 20 };
    const verdict = judgePage({ covered: 7, total: 20 }, snapshot, 5, writtenBefore('e'), idOf);
    expect(ids(verdict.fresh)).toEqual([]); // 'c' and 'd' sit ahead of a written item: saved meanwhile
    const clean = judgePage({ covered: 7, total: 20 }, snapshot, 5, none, idOf);
    expect(ids(clean.fresh)).toEqual(['c', 'd', 'e']);
    expect(verdict).toMatchObject({ accepted: true, done: false, cursor: { covered: 10, total: 20 } });
  });

  it('drops unseen items ahead of a seen one: they were saved during the run', () => {
    const snapshot = { page: 2, items: items('new', 'old', 'next'), total: 9 };
    const verdict = judgePage({ covered: 3, total: 9 }, snapshot, 3, writtenBefore('old'), idOf);
    expect(ids(verdict.fresh)).toEqual(['next']);
  });

  it('writes an id repeated within one page once', () => {
    const snapshot = { page: 1, items: items('a', 'a', 'b'), total: 3 };
    expect(ids(judgePage({ covered: 0, total: 3 }, snapshot, 3, none, idOf).fresh)).toEqual(['a', 'b']);
  });

  it('keeps items without an id', () => {
    const snapshot = { page: 1, items: [{ id: '' }, { id: '' }], total: 2 };
    const verdict = judgePage({ covered: 0, total: 2 }, snapshot, 2, none, () => undefined);
    expect(verdict.fresh).toHaveLength(2);
  });

  it('is done on a short page, and on a full page that reaches the total', () => {
    const short = judgePage(
      { covered: 4, total: 6 },
      { page: 2, items: items('e', 'f'), total: 6 },
      4,
      none,
      idOf,
    );
    expect(short.done).toBe(true);
    const exact = judgePage(
      { covered: 4, total: 8 },
      { page: 2, items: items('e', 'f', 'g', 'h'), total: 8 },
      4,
      none,
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

describe('YieldedItems', () => {
  type Timed = { id: string; ms?: number };
  const record = (capacity: number) =>
    new YieldedItems<Timed>(
      capacity,
      (item) => item.id,
      (item) => item.ms,
    );

  it('forgets old ids but still knows anything newer than what it forgot was written', () => {
    const written = record(2);
    for (let ms = 100; ms > 90; ms -= 1) written.add({ id: `x${ms}`, ms });
    expect(written.size).toBe(2);
    expect(written.has({ id: 'x100', ms: 100 })).toBe(true); // forgotten, newer than the floor
    expect(written.has({ id: 'x91', ms: 91 })).toBe(true); // still held
    expect(written.has({ id: 'y90', ms: 90 })).toBe(false); // owed: older than the last write
    expect(written.has({ id: 'y92', ms: 91 })).toBe(false); // ties the last write: decided by id
  });

  it('never forgets ids that tie with the last write, nor items without a time', () => {
    const written = record(1);
    for (let index = 0; index < 5; index += 1) written.add({ id: `t${index}`, ms: 50 });
    expect(written.size).toBe(5);
    expect(written.has({ id: 'other', ms: 50 })).toBe(false);
    const untimed = record(1);
    for (let index = 0; index < 5; index += 1) untimed.add({ id: `u${index}` });
    expect(untimed.size).toBe(5);
    expect(untimed.has({ id: 'u0' })).toBe(true);
  });
});
