// findDeletions (src/sync/deletions.ts) against a list held in memory: the vanished rows, exactly, in
// fewer page reads than the list has; no verdict when the list does not read as the mirror less some
// rows (an item the mirror lacks, another order) or when the total moves.
import { describe, expect, it } from 'vitest';
import { findDeletions, type RankedMirror } from '../../src/sync/deletions.js';

/** The mirror: ids newest first, ranked 3 apart from the top down (arithmetic, so 100,000 rows are cheap). */
function mirrorOf(ids: string[]): RankedMirror {
  const TOP = 1_000_000;
  const at = new Map(ids.map((id, index) => [id, index]));
  const clamp = (index: number) => Math.min(Math.max(index, 0), ids.length);
  const rows = (from: number, to: number) =>
    ids.slice(clamp(from), clamp(to)).map((id, offset) => ({ id, rank: TOP - (clamp(from) + offset) * 3 }));
  return {
    ranksOf: async (wanted) =>
      new Map(wanted.filter((id) => at.has(id)).map((id) => [id, TOP - (at.get(id) as number) * 3])),
    liveAbove: async (rank) => clamp(Math.ceil((TOP - rank) / 3)),
    liveRanked: async (high, low) => rows(Math.ceil((TOP - high) / 3), Math.floor((TOP - low) / 3) + 1),
  };
}

function server(list: string[], limit: number) {
  const pages: number[] = [];
  return {
    pages,
    readPage: async (page: number) => {
      pages.push(page);
      const items = list.slice((page - 1) * limit, page * limit).map((id) => ({ id }));
      return { items, meta: { page, limit, total: list.length, totalPages: Math.ceil(list.length / limit) } };
    },
  };
}

const ids = (n: number) => Array.from({ length: n }, (_, at) => `lead-${at}`);

describe('findDeletions', () => {
  it.each([
    ['one deletion in the middle', 10_000, [5_123]],
    ['the newest and the oldest', 10_000, [0, 9_999]],
    ['a run of neighbours across a page edge', 10_000, [198, 199, 200, 201]],
    ['scattered', 20_000, [7, 3_000, 3_001, 12_345, 19_998]],
    ['every row', 250, Array.from({ length: 250 }, (_, at) => at)],
  ])('%s: exactly the vanished rows, in fewer reads than the list has pages', async (_name, n, gone) => {
    const all = ids(n);
    const kept = all.filter((_, at) => !gone.includes(at));
    const list = server(kept, 100);
    const verdict = await findDeletions({
      ...list,
      mirror: mirrorOf(all),
      total: kept.length,
      live: n,
      limit: 100,
    });
    expect(verdict).toEqual({ deleted: expect.arrayContaining(gone.map((at) => `lead-${at}`)) });
    expect('deleted' in verdict && verdict.deleted.length).toBe(gone.length);
    // Each vanished row costs about log2 of the pages; never a page twice.
    expect(list.pages.length).toBeLessThanOrEqual(gone.length * Math.ceil(Math.log2(n / 100)) + 1);
    expect(new Set(list.pages).size).toBe(list.pages.length);
  });

  it('one deletion among 100,000 leads (1,000 pages) costs at most 10 page reads', async () => {
    const all = ids(100_000);
    const kept = all.filter((id) => id !== 'lead-61234');
    const list = server(kept, 100);
    const verdict = await findDeletions({
      ...list,
      mirror: mirrorOf(all),
      total: kept.length,
      live: all.length,
      limit: 100,
    });
    expect(verdict).toEqual({ deleted: ['lead-61234'] });
    expect(list.pages.length).toBeLessThanOrEqual(10);
  });

  it('gives no verdict for an item the mirror lacks, another order, or a total that moved', async () => {
    const all = ids(1_000);
    const withStranger = [...all.slice(0, 500), 'stranger', ...all.slice(502)];
    const stranger = await findDeletions({
      ...server(withStranger, 100),
      mirror: mirrorOf(all),
      total: withStranger.length,
      live: all.length,
      limit: 100,
    });
    expect(stranger).toEqual({ outcome: 'unsure' });

    const swapped = [...all.slice(0, 490), 'lead-491', 'lead-490', ...all.slice(492, 999)];
    const reordered = await findDeletions({
      ...server(swapped, 100),
      mirror: mirrorOf(all),
      total: 999,
      live: 1_000,
      limit: 100,
    });
    expect(reordered).toEqual({ outcome: 'unsure' });

    const moving = server(all.slice(1), 100);
    const changed = await findDeletions({
      readPage: async (page) => ({
        ...(await moving.readPage(page)),
        meta: { page, limit: 100, total: 998, totalPages: 10 },
      }),
      mirror: mirrorOf(all),
      total: 999,
      live: 1_000,
      limit: 100,
    });
    expect(changed).toEqual({ outcome: 'changed' });
  });

  it('hands every page it read to onPage once it holds only rows of the mirror', async () => {
    const all = ids(1_000);
    const kept = all.filter((id) => id !== 'lead-700');
    const list = server(kept, 100);
    const seen: string[][] = [];
    await findDeletions({
      ...list,
      onPage: async (items) => {
        seen.push(items.map((item) => String(item.id)));
      },
      mirror: mirrorOf(all),
      total: 999,
      live: 1_000,
      limit: 100,
    });
    expect(seen.length).toBe(list.pages.length);
    expect(seen[0]?.length).toBe(100);
  });
});
