// The --all promise: every item that existed throughout the run is written exactly once, newest first,
// however the list changes while pages are in flight.

import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/api/paging/index.js';
import {
  collect,
  type FakeLead,
  FakeList,
  FakeServer,
  flush,
  type HeldCall,
  seededRandom,
} from './paginate-fake-server.js';

/** Ids present at the start and never removed. */
function survivors(initialIds: string[], list: FakeList): string[] {
  return initialIds.filter((id) => !list.removed.has(id));
}

/**
 * No item twice, every survivor written, newest first. With a timeField that order covers every item
 * written, and nothing saved during the run is written; without one, only the items that existed at the
 * start are promised to be in order. `inOrder` false: the run said its order may not hold.
 */
function expectTheExportPromise(
  yielded: FakeLead[],
  initialIds: string[],
  list: FakeList,
  withTimeField = true,
  inOrder = true,
): void {
  const ids = yielded.map((item) => item.id);
  expect(new Set(ids).size, 'no item twice').toBe(ids.length);
  const initial = new Set(initialIds);
  const ordered = withTimeField ? yielded : yielded.filter((item) => initial.has(item.id));
  const seqs = ordered.map((item) => item.seq);
  if (inOrder) expect(seqs, 'newest first').toEqual([...seqs].sort((a, b) => b - a));
  if (withTimeField)
    expect(
      ids.filter((id) => !initial.has(id)),
      'nothing saved during the run',
    ).toEqual([]);
  const missing = survivors(initialIds, list).filter((id) => !ids.includes(id));
  expect(missing, 'every survivor written').toEqual([]);
}

/** Answers every request at once, running `beforeAnswer` first (with how many requests came before). */
async function runAnswering(
  list: FakeList,
  concurrency: number,
  beforeAnswer: (index: number, call: HeldCall) => void,
) {
  const server = new FakeServer(list);
  let index = 0;
  server.autoRespond = (call) => {
    beforeAnswer(index, call);
    index += 1;
  };
  const initialIds = list.ids();
  const items: FakeLead[] = [];
  const options = { limit: 5, concurrency, timeField: 'saved_at' };
  for await (const item of paginate(server.fetchPage, options)) items.push(item);
  return { items, initialIds, server };
}

describe('paginate while the list changes', () => {
  for (const concurrency of [1, 4, 8]) {
    describe(`at concurrency ${concurrency}`, () => {
      it('with leads saved before the run', async () => {
        const list = new FakeList(23);
        list.insert(4);
        const { items, initialIds } = await runAnswering(list, concurrency, () => {});
        expect(items.map((item) => item.id)).toEqual(initialIds);
      });

      it('with leads saved before every request', async () => {
        const list = new FakeList(23);
        const { items, initialIds } = await runAnswering(list, concurrency, (index) => {
          if (index > 0) list.insert(2);
        });
        expectTheExportPromise(items, initialIds, list);
      });

      it('with a burst of saves bigger than a page during the run', async () => {
        const list = new FakeList(30);
        const { items, initialIds } = await runAnswering(list, concurrency, (index) => {
          if (index === 2) list.insert(12);
        });
        expectTheExportPromise(items, initialIds, list);
      });

      it('with leads removed from pages already written', async () => {
        const list = new FakeList(30);
        const { items, initialIds } = await runAnswering(list, concurrency, (index) => {
          if (index === 2) list.removeAt(0);
          if (index === 3) list.removeAt(1);
        });
        expectTheExportPromise(items, initialIds, list);
      });

      it('with a save and a removal cancelling out in the total', async () => {
        const list = new FakeList(30);
        const { items, initialIds } = await runAnswering(list, concurrency, (index) => {
          if (index === 2 || index === 4) {
            list.insert(1);
            list.removeAt(list.items.length - 1);
          }
        });
        expectTheExportPromise(items, initialIds, list);
      });

      it('with leads saved after the last page was read', async () => {
        const list = new FakeList(20);
        let saved = false;
        const { items, initialIds, server } = await runAnswering(list, concurrency, (_index, call) => {
          if (call.page === 4 && call.limit === 5 && !saved) {
            call.respond();
            list.insert(3);
            saved = true;
          }
        });
        expect(items.map((item) => item.id)).toEqual(initialIds);
        // Every lead on pages 2.. is older than the newest on page 1, so no page of them was saved
        // during the run: the pages vouch for themselves, and no head read is spent.
        expect(server.dataRequests()).toEqual(['1:5', '2:5', '3:5', '4:5']);
        expect(server.headReads()).toHaveLength(0);
      });
    });
  }

  it('re-reads from what is proven when removals pull items toward the front (concurrency 1)', async () => {
    const list = new FakeList(12);
    const { items, initialIds, server } = await runAnswering(list, 1, (index) => {
      if (index === 1) list.removeAt(0); // page 2 now starts one item later: lead-7 would be skipped
    });
    // lead-12 was written before it was removed.
    expect(items.map((item) => item.id)).toEqual(initialIds);
    expect(server.dataRequests()).toEqual(['1:5', '2:5', '1:5', '2:5', '3:5']);
  });

  it('catches an insert and a removal between two pages read in reverse order (same totals)', async () => {
    // Pages 2 and 3 are in flight together. Page 3 reads [lead-2, lead-1]; then lead-7 is saved and
    // lead-1 removed; then page 2 reads [lead-5, lead-4]. Every total is 6, and lead-3 sits on neither
    // page: only the end probe's new first id (lead-7) shows that the round did not hold.
    const list = new FakeList(6);
    const server = new FakeServer(list);
    const initialIds = list.ids();
    const run = collect(paginate(server.fetchPage, { limit: 2, concurrency: 2 }));
    await flush();
    server.calls[0]?.respond();
    await flush();
    const [page2, page3] = server.open();
    expect([page2?.page, page3?.page]).toEqual([2, 3]);
    page3?.snapshot();
    list.insert(1);
    list.removeAt(list.items.length - 1);
    page2?.snapshot();
    page3?.deliver();
    page2?.deliver();
    while (!run.finished()) {
      await flush();
      for (const call of server.open()) call.respond();
    }
    const items = await run.done;
    expectTheExportPromise(items, initialIds, list);
    expect(items.map((item) => item.id)).toEqual(['lead-6', 'lead-5', 'lead-4', 'lead-3', 'lead-2']);
  });
});

/** Seeds a setting; a longer search: PAGINATE_SEEDS=3000 npx vitest run test/unit/paginate-consistency.test.ts */
const SEEDS = Number(process.env.PAGINATE_SEEDS ?? 150);

describe('paginate under random saves and removals (seeded)', () => {
  async function randomRun(seed: number, concurrency: number, withTimeField: boolean): Promise<void> {
    const random = seededRandom(seed);
    const pick = (n: number) => Math.floor(random() * n);
    // Every fourth list spans several probe intervals (16 pages) and forgets written ids on the way.
    const list = new FakeList(pick(60) + (seed % 4 === 0 ? 100 + pick(100) : 0));
    const initialIds = list.ids();
    const server = new FakeServer(list);
    const timeField = withTimeField ? { timeField: 'saved_at' } : {};
    const notices: string[] = [];
    const onNotice = (notice: string) => notices.push(notice);
    const run = collect(
      paginate(server.fetchPage, { limit: 2 + pick(7), concurrency, onNotice, ...timeField }),
    );
    const changesAllowed = pick(15);
    let changes = 0;
    for (let step = 0; !run.finished(); step += 1) {
      if (step > 10_000) throw new Error(`seed ${seed}: no end in sight`);
      await flush();
      if (run.finished()) break;
      if (changes < changesAllowed && random() < 0.35) {
        changes += 1;
        const kind = random();
        // Now and then a burst: a page's worth or more saved, or a run of neighbours deleted at once.
        if (kind < 0.45) list.insert(1 + pick(random() < 0.2 ? 12 : 3));
        // Removing the front often takes back a lead saved during the run: a change no total shows.
        else if (kind < 0.7 && list.items.length > 0) list.removeAt(0);
        else if (list.items.length > 0) {
          const at = pick(list.items.length);
          const run = random() < 0.2 ? 1 + pick(10) : 1;
          for (let n = 0; n < run && at < list.items.length; n += 1) list.removeAt(at);
        }
        continue;
      }
      // Held pages are handed out one event-loop turn each: let them all go before calling a stall.
      for (let turn = 0; turn < 100 && server.open().length === 0 && !run.finished(); turn += 1)
        await flush();
      if (run.finished()) break;
      const open = server.open();
      const call = open[pick(open.length)];
      if (!call) throw new Error(`seed ${seed}: stalled with nothing in flight`);
      if (call.state === 'waiting') call.snapshot();
      else call.deliver();
    }
    const items = await run.done;
    try {
      // Order is promised unless the run says it read the list again around what it had written.
      const reread = notices.some((notice) => notice.includes("may stand out of the server's order"));
      expectTheExportPromise(items, server.firstSnapshotIds ?? initialIds, list, withTimeField, !reread);
    } catch (error) {
      throw new Error(`seed ${seed}, concurrency ${concurrency}: ${String(error)}`);
    }
  }

  // Runs that longer searches (1,200 seeds a setting) found, kept for good: a page that disagreed after
  // page 2 judged against page 2's cursor (old leads out of order), and a lead saved meanwhile written
  // when no written lead was in view (with a timeField).
  it.each([
    [6889536, 6, false],
    [4212912, 4, true],
  ])(
    'keeps the promise in the run of seed %i at concurrency %i (timeField: %s)',
    async (seed, concurrency, withTimeField) => {
      await randomRun(seed, concurrency, withTimeField);
    },
  );

  for (let concurrency = 1; concurrency <= 8; concurrency += 1) {
    for (const withTimeField of [true, false]) {
      const label = withTimeField ? 'with a timeField' : 'without a timeField';
      it(`keeps the promise over ${SEEDS} runs at concurrency ${concurrency}, ${label}`, async () => {
        for (let seed = 1; seed <= SEEDS; seed += 1) {
          await randomRun(seed * 7919 + concurrency, concurrency, withTimeField);
        }
      });
    }
  }
});
