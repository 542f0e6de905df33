// Hand-staged interleavings for the pipelined window (src/api/paging/README.md, "Pages read alongside
// each other"): pages read from a list that changed while they were in flight, in ways no total shows
// (a save and a deletion together). The window must notice before it writes such a page, or the head
// read at the end must refuse to certify it.
//
// Set-up shared by the tests: 40 leads, pages of 2, concurrency 2. Page 1 is read alone and is the
// anchor (first id lead-40, total 40). Positions are the anchor's: page p holds positions 2p-2 and
// 2p-1, and position i is lead-(40 - i).

import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/api/paging/index.js';
import {
  collect,
  type FakeLead,
  FakeList,
  FakeServer,
  flush,
  type HeldCall,
} from './paginate-fake-server.js';

const LEADS = 40;
const options = { limit: 2, concurrency: 2 };

/** Starts a run over 40 leads and answers page 1 (the anchor). */
async function start() {
  const list = new FakeList(LEADS);
  const server = new FakeServer(list);
  const initialIds = list.ids();
  const run = collect(paginate(server.fetchPage, options));
  await flush();
  server.calls[0]?.respond();
  await flush();
  return { list, server, initialIds, run };
}

const openPage = (server: FakeServer, page: number): HeldCall | undefined =>
  server.open().find((call) => call.limit === 2 && call.page === page);

/** Answers open page requests, lowest page first, leaving the pages in `held` alone, while any is open. */
async function answerPagesExcept(server: FakeServer, held: number[]): Promise<void> {
  for (let turn = 0; turn < 100; turn += 1) {
    const [next] = server
      .open()
      .filter((call) => !held.includes(call.page))
      .sort((a, b) => a.page - b.page);
    if (!next) return;
    next.respond();
    await flush();
  }
  throw new Error('no end in sight');
}

/** Answers open page requests in order until pages `a` and `b` are both in flight (not answered). */
async function answerPagesUntilInFlight(server: FakeServer, a: number, b: number): Promise<void> {
  for (let turn = 0; turn < 100; turn += 1) {
    if (openPage(server, a) && openPage(server, b)) return;
    const [next] = server.open().sort((x, y) => x.page - y.page);
    if (!next) throw new Error('nothing to answer');
    next.respond();
    await flush();
  }
  throw new Error(`pages ${a} and ${b} never in flight together`);
}

/** Answers everything still asked for, in request order, until the run ends. */
async function finish(server: FakeServer, run: ReturnType<typeof collect<FakeLead>>): Promise<FakeLead[]> {
  for (let turn = 0; turn < 1000 && !run.finished(); turn += 1) {
    await flush();
    for (const call of server.open()) call.respond();
  }
  return run.done;
}

/** No lead twice, and every lead of the original list that was never removed is written. */
function expectEveryLeadOnce(items: FakeLead[], initialIds: string[], list: FakeList): void {
  const ids = items.map((item) => item.id);
  expect(new Set(ids).size, 'no lead twice').toBe(ids.length);
  const missing = initialIds.filter((id) => !list.removed.has(id) && !ids.includes(id));
  expect(missing, 'every lead of the original list written').toEqual([]);
}

/** The list's front gains a lead and its last lead goes: every total stays 40. */
function insertAndRemoveLast(list: FakeList): void {
  list.insert(1);
  list.removeAt(list.items.length - 1);
}

describe('pages read alongside each other from a list that changed unseen', () => {
  it('(a) a page read after a save and a deletion, handed out after pages read before them', async () => {
    // Page 2 is held back while every page the window sends after it is answered from the anchor's
    // list. Then lead-41 is saved and lead-1 deleted (total still 40), and page 2 reads the changed
    // list: [lead-39, lead-38], one position late. Page 3 was read from the anchor's list,
    // [lead-36, lead-35]: written after page 2 it would lose lead-37. Page 2 shows lead-39, written
    // with page 1: the window stops trusting the pages it holds and reads on one page at a time.
    const { list, server, initialIds, run } = await start();
    await answerPagesExcept(server, [2]);
    insertAndRemoveLast(list);
    openPage(server, 2)?.respond();
    const items = await finish(server, run);
    expectEveryLeadOnce(items, initialIds, list);
    expect(items.map((item) => item.id).slice(0, 5)).toEqual([
      'lead-40',
      'lead-39',
      'lead-38',
      'lead-37',
      'lead-36',
    ]);
  });

  it('(c) a page read after a save and a deletion, next to one read before them', async () => {
    // Pages 16 and 17 are in flight together. Page 17 reads the anchor's list, [lead-8, lead-7].
    // Then lead-41 is saved and lead-1 deleted (total still 40), and page 16 reads the changed list:
    // [lead-11, lead-10], one position back. lead-11 was written with page 15, so page 16 is not
    // trusted; page 17 is dropped and read again, and lead-9 is not lost.
    const { list, server, initialIds, run } = await start();
    await answerPagesUntilInFlight(server, 16, 17);
    const [page16, page17] = [openPage(server, 16), openPage(server, 17)];
    page17?.snapshot(); // [lead-8, lead-7]
    insertAndRemoveLast(list);
    page16?.snapshot(); // [lead-11, lead-10] on the changed list
    page16?.deliver();
    page17?.deliver();
    const items = await finish(server, run);
    expectEveryLeadOnce(items, initialIds, list);
    expect(items.map((item) => item.id).slice(28, 33)).toEqual([
      'lead-12',
      'lead-11',
      'lead-10',
      'lead-9',
      'lead-8',
    ]);
  });

  it('(b) a page read while a save was in the list, gone again before the next read', async () => {
    // As in (c), but lead-41 is deleted again right after page 16 read [lead-11, lead-10] (total 41):
    // every later snapshot is the anchor's list. The total gives page 16 away; the rest is read one
    // page at a time, and the export is the anchor's list exactly.
    const { list, server, initialIds, run } = await start();
    await answerPagesUntilInFlight(server, 16, 17);
    const [page16, page17] = [openPage(server, 16), openPage(server, 17)];
    page17?.snapshot(); // [lead-8, lead-7]
    list.insert(1);
    page16?.snapshot(); // [lead-11, lead-10], total 41
    list.removeAt(0); // lead-41 gone again: every later snapshot is the anchor's list
    page16?.deliver();
    page17?.deliver();
    const items = await finish(server, run);
    expect(items.map((item) => item.id)).toEqual(initialIds.filter((id) => !list.removed.has(id)));
    expect(list.removed).toEqual(new Set(['lead-41']));
  });
});
