// One scripted run per boundary of the walk and its head reads that the other paginate tests leave
// loose: each test fails when the comparison it names moves (see src/api/paging/README.md for the
// model). The list changes at chosen requests: `at[n]` runs just before the n-th request (0-based,
// head reads included) reads the list.
import { expect, it } from 'vitest';
import { type PageResult, type PaginateOptions, paginate } from '../../src/api/paging/index.js';
import { type FakeLead, FakeList, FakeServer } from './paginate-fake-server.js';

/** More requests than any of these runs needs: a walk that loops fails instead of hanging. */
const MAX_REQUESTS = 1000;

type Answer = PageResult<FakeLead>;

/** `at[n]` changes the list before request n reads it; `answer[n]` bends what request n returns. */
async function scripted(
  list: FakeList,
  options: Omit<PaginateOptions, 'onNotice'>,
  at: Record<number, (list: FakeList) => void> = {},
  answer: Record<number, (answer: Answer) => Answer> = {},
) {
  const server = new FakeServer(list);
  server.autoRespond = (call) => {
    const index = server.calls.length - 1;
    if (index >= MAX_REQUESTS) return call.fail(new Error(`more than ${MAX_REQUESTS} requests`));
    at[index]?.(list);
    const bend = answer[index];
    if (!bend) return;
    call.snapshot();
    if (call.answer) call.answer = bend(call.answer);
    call.deliver();
  };
  const notices: string[] = [];
  const ids: string[] = [];
  let error: unknown;
  try {
    for await (const item of paginate<FakeLead>(server.fetchPage, {
      ...options,
      onNotice: (notice) => notices.push(notice),
    }))
      ids.push(item.id);
  } catch (caught) {
    error = caught;
  }
  const requests = server.calls.map((call) => `${call.page}:${call.limit}`);
  return { ids, notices, error, requests };
}

const range = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => `lead-${from - index}`);

it('leaves out an item saved and deleted again during the run, which only a head read of the whole list proves gone', async () => {
  // Page 2 is read after 12 saves and 11 deletions: lead-26, saved meanwhile, stands in front of
  // lead-23 (written), a hint; it is deleted before the head read, which sees the whole list.
  const { ids, error } = await scripted(
    new FakeList(25),
    { limit: 10, concurrency: 1 },
    {
      1: (list) => {
        list.insert(12);
        list.removeId('lead-25');
        list.removeId('lead-24');
        for (let seq = 1; seq <= 9; seq += 1) list.removeId(`lead-${seq}`);
      },
      2: (list) => list.removeId('lead-26'),
    },
  );
  expect(error).toBeUndefined();
  expect(ids).not.toContain('lead-26');
  expect(ids).toEqual(range(25, 10));
});

it('says the list changed when only the head read at the end sees a deletion', async () => {
  const { ids, notices, requests } = await scripted(
    new FakeList(35),
    { limit: 10, concurrency: 4 },
    {
      4: (list) => list.removeId('lead-1'),
    },
  );
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '1:100']);
  expect(ids).toEqual(range(35, 1));
  expect(notices).toEqual([
    'The list changed during the export (35 items at the start, 34 at the end): every item present throughout was written once',
  ]);
});

it('says the list changed when only the head read at the end sees a save and a deletion', async () => {
  const { ids, notices, requests } = await scripted(
    new FakeList(35),
    { limit: 10, concurrency: 4 },
    {
      4: (list) => {
        list.insert(1);
        list.removeId('lead-1');
      },
    },
  );
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '1:100']);
  expect(ids).toEqual(range(35, 1));
  expect(notices).toEqual([
    'The list changed during the export (35 items at the start, 35 at the end): every item present throughout was written once; 1 saved meanwhile is not in it',
  ]);
});

it('counts each item a head read proves saved meanwhile once, the last one on the page included', async () => {
  // As above, but every item saved meanwhile is deleted again before the head read, so only the
  // items skipped on page 2 (lead-27 below the cursor, lead-26 in front of a written one) count.
  const { ids, notices } = await scripted(
    new FakeList(25),
    { limit: 10, concurrency: 1 },
    {
      1: (list) => {
        list.insert(12);
        list.removeId('lead-25');
        list.removeId('lead-24');
        for (let seq = 1; seq <= 9; seq += 1) list.removeId(`lead-${seq}`);
      },
      2: (list) => {
        for (let seq = 26; seq <= 37; seq += 1) list.removeId(`lead-${seq}`);
      },
    },
  );
  expect(ids).toEqual(range(25, 10));
  expect(notices.slice(-1)).toEqual([
    'The list changed during the export (25 items at the start, 14 at the end): every item present throughout was written once; 2 saved meanwhile are not in it',
  ]);
});

// Page 2 is read after 12 saves and 11 deletions: it holds lead-27 (below the cursor), lead-26 (saved
// meanwhile), lead-17 and lead-16 (written on page 1), then lead-15, lead-14, ... Before the head read
// (which sees the whole list) the saved leads and one old lead go. An item proven gone drops only itself:
// with lead-14 gone, lead-15 stands in front of it, old and owed. Saved meanwhile: lead-27 and lead-26;
// the gone lead, behind the written ones, may have been old and is not counted.
it.each([
  ['lead-15', 'the written items in front of it'],
  ['lead-14', 'an owed item in front of it'],
])('drops only %s, proven gone by a head read, not %s', async (gone) => {
  const { ids, notices } = await scripted(
    new FakeList(25),
    { limit: 10, concurrency: 1 },
    {
      1: (list) => {
        list.insert(12);
        for (let seq = 18; seq <= 25; seq += 1) list.removeId(`lead-${seq}`);
        for (let seq = 1; seq <= 3; seq += 1) list.removeId(`lead-${seq}`);
      },
      2: (list) => {
        list.removeId(gone);
        for (let seq = 26; seq <= 37; seq += 1) list.removeId(`lead-${seq}`);
      },
    },
  );
  expect(ids).toEqual(range(25, 4).filter((id) => id !== gone));
  expect(notices.slice(-1)).toEqual([
    'The list changed during the export (25 items at the start, 13 at the end): every item present throughout was written once; 2 saved meanwhile are not in it',
  ]);
});

it('takes a page of repeats for the server repeating itself unless as many items were deleted', async () => {
  // Page 2 is answered with page 1's items (each time it is read). Before the head read that judges
  // it, `changed` leads are saved in front and as many deleted at the tail (the total holds, so the
  // page is not refused).
  // Ten repeats past the cursor need ten deletions behind them: with nine, accepting the page would
  // skip lead-30, which the nine saves pushed to the page's last place; with ten, page 3 holds it.
  const repeatPageOne = (changed: number, repeatedAt: number[]) => {
    const pageOne = (answer: Answer): Answer => ({ ...answer, items: new FakeList(40).page(1, 10).items });
    const change = (list: FakeList) => {
      list.insert(changed);
      for (let seq = 1; seq <= changed; seq += 1) list.removeId(`lead-${seq}`);
    };
    const bent = Object.fromEntries(repeatedAt.map((request) => [request, pageOne]));
    return scripted(new FakeList(40), { limit: 10, concurrency: 1 }, { 2: change }, bent);
  };
  // Requests 1 and 3: page 2, and page 2 read once more.
  const nine = await repeatPageOne(9, [1, 3]);
  expect(String(nine.error)).toContain('server answered page 2 with items it had already sent');
  expect(nine.ids).toEqual(range(40, 31));
  const ten = await repeatPageOne(10, [1]);
  expect(ten.error).toBeUndefined();
  expect(ten.ids).toEqual(range(40, 11));
});

it('reads each page once at concurrency 1, the page after the cursor and not the one holding it', async () => {
  const { ids, requests } = await scripted(new FakeList(25), { limit: 10, concurrency: 1 });
  expect(ids).toEqual(range(25, 1));
  expect(requests).toEqual(['1:10', '2:10', '3:10']);
});

it('stops with exit 7 when --max-items ends the window and the head read cannot vouch for it', async () => {
  // Twenty deletions behind the pages read: two pages' worth, more than one head read certifies.
  const { ids, error, requests } = await scripted(
    new FakeList(40),
    { limit: 10, concurrency: 4, maxItems: 25 },
    {
      3: (list) => {
        for (let seq = 1; seq <= 20; seq += 1) list.removeId(`lead-${seq}`);
      },
    },
  );
  expect(requests).toEqual(['1:10', '2:10', '3:10', '1:100']);
  expect(ids).toEqual(range(40, 16));
  expect(String(error)).toContain(
    'the list changed during the export more than its answers can vouch for (40 items at the start, 20 at the end); 25 written',
  );
});

it('reads the list again from page 2 when the anchor page is gone from the head read', async () => {
  const { ids, requests } = await scripted(
    new FakeList(40),
    { limit: 10, concurrency: 4 },
    {
      4: (list) => {
        for (let seq = 31; seq <= 40; seq += 1) list.removeId(`lead-${seq}`);
      },
    },
  );
  expect(ids).toEqual(range(40, 1));
  // Uncertified: only page 1 is trusted; page 2 is refused (the list shrank) and the walk starts over.
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '1:100', '2:10', '1:10', '2:10', '3:10']);
});

it('goes on after the head read when a page disagreed, from where the head read puts the cursor', async () => {
  const { ids, requests } = await scripted(
    new FakeList(60),
    { limit: 10, concurrency: 4 },
    {
      3: (list) => list.insert(10),
    },
  );
  expect(ids).toEqual(range(60, 1));
  // Page 4 saw ten saves: the head read finds them in front, and the walk resumes at page 5.
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '5:10', '6:10', '1:100', '5:10', '6:10', '7:10']);
});

it('reads the list again when the head read cannot place the anchor page, not judging the page that disagreed', async () => {
  // A hundred saves before page 4 is read: it disagrees, and the anchor page is out of the head read's sight.
  const { ids, requests } = await scripted(
    new FakeList(60),
    { limit: 10, concurrency: 4 },
    {
      3: (list) => list.insert(100),
    },
  );
  expect(ids).toEqual(range(60, 1));
  expect(requests).toEqual([
    ...['1:10', '2:10', '3:10', '4:10', '5:10', '6:10', '1:100'],
    ...['2:10', '12:10', '13:10', '14:10', '15:10', '16:10'],
  ]);
});

/** Deletes the newest lead before each request from `from` to `to`: each of those pages is refused. */
function shrinkEach(from: number, to: number): Record<number, (list: FakeList) => void> {
  const at: Record<number, (list: FakeList) => void> = {};
  for (let index = from; index <= to; index += 1) at[index] = (list) => list.removeAt(0);
  return at;
}

it('reads a page of repeated ids once more and goes on when the second answer is right', async () => {
  const { ids, requests } = await scripted(
    new FakeList(30),
    { limit: 10, concurrency: 1 },
    {},
    {
      1: (answer) => ({ ...answer, items: new FakeList(30).page(1, 10).items }),
    },
  );
  expect(ids).toEqual(range(30, 1));
  expect(requests).toEqual(['1:10', '2:10', '1:100', '2:10', '3:10']);
});

it('gives each odd page its own second read: two short answers in one run are no reason to stop', async () => {
  const short = (answer: Answer) => ({ ...answer, items: answer.items.slice(0, 5) });
  const { ids, requests, error } = await scripted(
    new FakeList(40),
    { limit: 10, concurrency: 1 },
    {},
    {
      1: short,
      3: short,
    },
  );
  expect(error).toBeUndefined();
  expect(ids).toEqual(range(40, 1));
  expect(requests).toEqual(['1:10', '2:10', '2:10', '3:10', '3:10', '4:10']);
});

it('reads a short page of the window again instead of writing it, though its total agrees', async () => {
  const { ids, error, requests } = await scripted(
    new FakeList(40),
    { limit: 10, concurrency: 4 },
    {},
    {
      2: (answer) => ({ ...answer, items: answer.items.slice(0, 9) }),
    },
  );
  expect(error).toBeUndefined();
  expect(ids).toEqual(range(40, 1));
  // Page 3 disagreed after page 2 agreed: read alongside page 2, it may predate it, so a head read
  // vouches for page 2 before page 3 is read again.
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '1:100', '3:10', '4:10']);
});

it('counts refused pages in a row, not in the whole run: a page refused now and then is no reason to stop', async () => {
  // Before every other request the newest lead (written) is deleted: that page is refused, the next accepted.
  const at: Record<number, (list: FakeList) => void> = {};
  for (let index = 1; index < 200; index += 2) at[index] = (list) => list.removeAt(0);
  const { ids, error } = await scripted(new FakeList(60), { limit: 1, concurrency: 1 }, at);
  expect(error).toBeUndefined();
  expect(ids).toEqual(range(60, 1));
});

it('goes on after 50 refused pages in a row, and stops on the 51st', async () => {
  const fifty = await scripted(new FakeList(80), { limit: 1, concurrency: 1 }, shrinkEach(60, 109));
  expect(fifty.error).toBeUndefined();
  expect(fifty.ids).toEqual(range(80, 1));
  const fiftyOne = await scripted(new FakeList(80), { limit: 1, concurrency: 1 }, shrinkEach(60, 110));
  expect(String(fiftyOne.error)).toContain('the list kept shrinking faster than it could be paged');
  expect(fiftyOne.ids).toEqual(range(80, 21));
});

it('spends no head read on a short last page of repeated ids', async () => {
  const { ids, requests, notices } = await scripted(
    new FakeList(25),
    { limit: 10, concurrency: 1 },
    {},
    {
      2: (answer) => ({ ...answer, items: new FakeList(25).page(2, 10).items.slice(0, 5) }),
    },
  );
  expect(ids).toEqual(range(25, 6));
  expect(requests).toEqual(['1:10', '2:10', '3:10']);
  expect(notices).toEqual([
    'Left out 5 items whose id had already been written (the server sent the same id more than once)',
  ]);
});

it('spends no head read on a page that lies wholly below the cursor', async () => {
  // Page 2 is refused (ten deletions), then page 1 holds only the ten leads saved meanwhile.
  const { ids, requests } = await scripted(
    new FakeList(30),
    { limit: 10, concurrency: 1 },
    {
      1: (list) => {
        for (let seq = 1; seq <= 10; seq += 1) list.removeId(`lead-${seq}`);
      },
      2: (list) => list.insert(10),
    },
  );
  expect(ids).toEqual(range(30, 11));
  expect(requests).toEqual(['1:10', '2:10', '1:10', '2:10', '1:100', '3:10']);
});

/** Gives lead-`seq` a time `minutes` after the newest lead of a 50-lead list: re-saved before the run. */
function resaved(list: FakeList, seq: number, minutes: number): void {
  const lead = list.items.find((item) => item.id === `lead-${seq}`);
  if (lead) lead.saved_at = new Date(Date.UTC(2026, 0, 1) + (50 + minutes) * 60_000).toISOString();
}

it('writes no item of the window that is newer than page 1 once the anchor page is gone from the head', async () => {
  // Before page 3 is read, 21 leads are saved and pages 1 and 2 (and lead-20) deleted: page 3 agrees
  // with the anchor by its total, holds nothing written, and lead-41, saved meanwhile, is on it.
  const options = { limit: 10, concurrency: 4, timeField: 'saved_at' };
  const { ids } = await scripted(new FakeList(40), options, {
    2: (list) => {
      list.insert(21);
      for (let seq = 20; seq <= 40; seq += 1) list.removeId(`lead-${seq}`);
    },
  });
  expect(ids).toEqual([...range(40, 21), ...range(19, 1)]);
});

it('spends one head read per newer time on re-saved leads, not one per page', async () => {
  const list = new FakeList(50);
  resaved(list, 25, 10);
  resaved(list, 15, 5);
  const { ids, requests } = await scripted(list, { limit: 10, concurrency: 4, timeField: 'saved_at' });
  expect(ids).toEqual(range(50, 1));
  // A head read for lead-25 on page 3 (proven old); lead-15 on page 4 is older than it: no read; one to certify.
  expect(requests).toEqual(['1:10', '2:10', '3:10', '4:10', '5:10', '1:100', '1:100']);
});

it('keeps a re-saved lead when the head read finds the total changed: the window ends, the walk reads on', async () => {
  const list = new FakeList(50);
  resaved(list, 25, 10);
  const { ids, requests } = await scripted(
    list,
    { limit: 10, concurrency: 4, timeField: 'saved_at' },
    {
      5: (list) => list.removeId('lead-1'),
    },
  );
  expect(ids).toEqual(range(50, 2));
  // The head read for lead-25 sees 49 leads: page 3 is not proven old, so it ends the window. The next
  // head read vouches for page 2; the walk goes on from its snapshot, one position back for the
  // deletion (which could have been anywhere), and a head read places lead-25 again on page 3.
  expect(requests).toEqual([
    ...['1:10', '2:10', '3:10', '4:10', '5:10', '1:100', '1:100'],
    ...['2:10', '3:10', '1:100', '4:10', '5:10'],
  ]);
});

it('spends no head read on a newer time while the list is seen holding still', async () => {
  const list = new FakeList(30);
  resaved(list, 15, 10);
  const { ids, requests } = await scripted(list, { limit: 10, concurrency: 1, timeField: 'saved_at' });
  expect(ids).toEqual(range(30, 1));
  expect(requests).toEqual(['1:10', '2:10', '3:10']);
});

it('reports the most leads any head read found saved meanwhile, not the last head read', async () => {
  // The head read for re-saved lead-25 finds 5 leads saved; they are deleted before the next one.
  const list = new FakeList(50);
  resaved(list, 25, 10);
  const { ids, notices } = await scripted(
    list,
    { limit: 10, concurrency: 4, timeField: 'saved_at' },
    {
      5: (list) => list.insert(5),
      6: (list) => {
        for (let seq = 51; seq <= 55; seq += 1) list.removeId(`lead-${seq}`);
      },
    },
  );
  expect(ids).toEqual(range(50, 1));
  expect(notices).toEqual([
    'The list changed during the export (50 items at the start, 50 at the end): every item present throughout was written once; 5 saved meanwhile are not in it',
  ]);
});

it('takes no time past page 1 as a hint: leads of page 1 pulled into view are written, not dropped', async () => {
  // From page 2: all it wrote and five more are deleted, so page 1's leads come into view. Nothing
  // places them (no written lead is left), and a time newer than page 2's proves nothing.
  const options = { limit: 10, concurrency: 1, startPage: 2, timeField: 'saved_at' };
  const { ids, requests } = await scripted(new FakeList(40), options, {
    1: (list) => {
      for (let seq = 16; seq <= 30; seq += 1) list.removeId(`lead-${seq}`);
    },
  });
  expect(requests).toEqual(['2:10', '3:10', '1:10', '2:10', '3:10']);
  expect(ids).toEqual([...range(30, 21), ...range(35, 31), ...range(15, 1)]);
});
