// `leads --all` against servers that bend the spec the way real services do (issue 12's table): each
// either exports exactly (every distinct lead once, in the server's order) or stops with exit 7 and a
// line saying what the server did and how much was written. Never `exit 0` with leads missing.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { bentServerForTest, honest, type Lead, leadsList } from '../helpers/fake-server.js';

let home: string;
beforeAll(async () => {
  home = await tempConfigHome();
});

async function exportFrom(list: Lead[], bend = honest, extra: string[] = []) {
  const server = await bentServerForTest(list, bend);
  const args = ['leads', '--all', '--format', 'ndjson', '--base-url', server.baseUrl, '--api-key', 'k'];
  const result = await runCli([...args, ...extra], { env: { XDG_CONFIG_HOME: home } });
  const lines = result.stdout.split('\n').filter(Boolean);
  const ids = lines.map((line) => /"id":\s*"?([^",}]+)/.exec(line)?.[1]);
  return { ...result, ids, lines, requests: server.requests };
}

const idsOf = (list: Lead[]) => list.map((lead) => String(lead.id));

/** Every distinct id once, in the order of its first appearance. */
const distinctInOrder = (list: Lead[]) => [...new Set(idsOf(list))];

describe('an export against a server that bends the spec', () => {
  it('writes leads re-saved mid-list (saved_at newer than their neighbours) exactly once, in order', async () => {
    const list = leadsList(2_000);
    for (let index = 150; index < list.length; index += 97) {
      // Newer than every lead of the first page, each a minute older than the one before.
      (list[index] as Lead).saved_at = new Date(Date.UTC(2026, 10, 23, 9) - index * 60_000).toISOString();
    }
    const { exitCode, ids, requests } = await exportFrom(list);
    expect(exitCode).toBe(0);
    expect(ids).toEqual(idsOf(list));
    // 20 pages, the head read that certifies them, and one that shows the first newer time re-saved.
    expect(requests.length).toBeLessThanOrEqual(20 + 2);
  });

  it('stops with exit 7 when the server ignores `page` (every page is page 1)', async () => {
    const list = leadsList(2_500);
    const { exitCode, stderr, ids } = await exportFrom(list, ({ limit }, all) =>
      honest({ page: 1, limit }, all),
    );
    expect(exitCode).toBe(7);
    expect(stderr).toMatch(
      /^leadctl: server answered page 2 with items it had already sent .*; 100 of 2500 written$/m,
    );
    expect(ids).toEqual(idsOf(list).slice(0, 100));
  });

  it('stops with exit 7 at a page shorter than its meta.total allows, in the middle of the list', async () => {
    const list = leadsList(250);
    const { exitCode, stderr, ids } = await exportFrom(list, (request, all) => {
      const answer = honest(request, all);
      return request.page === 2 && typeof answer !== 'string'
        ? { ...answer, items: answer.items.slice(0, 10) }
        : answer;
    });
    expect(exitCode).toBe(7);
    expect(stderr).toMatch(
      /^leadctl: server answered page 2 with 10 items where its meta.total \(250\) means 100 belong there; 100 written$/m,
    );
    expect(ids).toEqual(idsOf(list).slice(0, 100));
  });

  it('pages by the size the server really uses when it clamps the limit without meta.limit', async () => {
    const list = leadsList(250);
    const { exitCode, ids, requests } = await exportFrom(list, ({ page, limit }, all) => {
      const size = Math.min(limit, 50);
      const { meta, items } = honest({ page, limit: size }, all) as { items: Lead[]; meta: Lead };
      return { items, meta: { page: meta.page, total: meta.total } };
    });
    expect(exitCode).toBe(0);
    expect(ids).toEqual(idsOf(list));
    expect(requests.filter((request) => request.limit !== 100).every((request) => request.limit === 50)).toBe(
      true,
    );
  });

  it('stops with exit 7 when page 2 repeats page 1', async () => {
    const list = leadsList(250);
    const { exitCode, stderr, ids } = await exportFrom(list, ({ page, limit }, all) =>
      honest({ page: page === 2 ? 1 : page, limit }, all),
    );
    expect(exitCode).toBe(7);
    expect(stderr).toMatch(/^leadctl: server answered page 2 with items it had already sent/m);
    expect(ids).toEqual(idsOf(list).slice(0, 100));
  });

  it('stops with exit 7 when page 2 repeats page 1 while one lead is deleted at the tail', async () => {
    // The deletion changes the total, but one deletion cannot put a whole page of written leads past
    // the cursor: the repeats are the server's, and accepting them would lose leads 101-200.
    const list = leadsList(250);
    let deleted = false;
    const { exitCode, stderr, ids } = await exportFrom(list, ({ page, limit }, all) => {
      const answer = honest({ page: page === 2 ? 1 : page, limit }, all);
      if (page === 2 && !deleted) {
        all.pop();
        deleted = true;
      }
      return answer;
    });
    expect(stderr).toMatch(/^leadctl: server answered page 2 with items it had already sent/m);
    expect(exitCode).toBe(7);
    expect(ids).toEqual(idsOf(list).slice(0, 100));
  });

  it('stops with exit 7 on a negative meta.total, before writing anything', async () => {
    const list = leadsList(250);
    const { exitCode, stderr, stdout } = await exportFrom(list, (request, all) => {
      const answer = honest(request, all) as { items: Lead[]; meta: Lead };
      return { ...answer, meta: { ...answer.meta, total: -5 } };
    });
    expect(exitCode).toBe(7);
    expect(stderr).toMatch(
      /^leadctl: server answered page 1 with meta.total -5, which is not a count of items$/m,
    );
    expect(stdout).toBe('');
  });

  it('drops only the repeated copies when five leads share one id, and says so', async () => {
    const list = leadsList(250);
    for (const index of [10, 60, 110, 160, 210]) (list[index] as Lead).id = 'shared';
    const { exitCode, stderr, ids } = await exportFrom(list);
    expect(exitCode).toBe(0);
    expect(ids).toEqual(distinctInOrder(list));
    expect(ids).toHaveLength(246);
    expect(stderr).toMatch(/Left out 4 items whose id had already been written/);
  });

  it('explains on stderr, with exit 0, a list that lost leads during the run', async () => {
    const list = leadsList(250);
    const gone = new Set<string>();
    const { exitCode, ids, stderr } = await exportFrom(list, (request, all) => {
      // Page 2 is asked for: five leads of page 1, written already, are deleted.
      if (request.page === 2 && gone.size === 0)
        for (const lead of all.splice(0, 5)) gone.add(String(lead.id));
      return honest(request, all);
    });
    expect(exitCode).toBe(0);
    expect(ids).toEqual(idsOf(leadsList(250)));
    expect(stderr).toMatch(/^The list changed during the export \(250 items at the start, 245 at the end\)/m);
  });

  it('keeps every digit of numeric ids beyond 2^53 and writes each lead once', async () => {
    // Needs the lossless parse of JSON numbers (src/api/exact-number.ts and the parser behind it).
    const ids = Array.from(
      { length: 250 },
      (_, index) => `17900000000000${String(index + 1).padStart(5, '0')}`,
    );
    const { exitCode, lines } = await exportFrom(leadsList(250), ({ page, limit }) => {
      const slice = ids.slice((page - 1) * limit, page * limit);
      const leads = slice.map((id) => `{"id":${id},"name":"n"}`).join(',');
      return `{"leads":[${leads}],"meta":{"page":${page},"limit":${limit},"total":250,"totalPages":${Math.ceil(250 / limit)}}}`;
    });
    expect(exitCode).toBe(0);
    expect(lines.map((line) => /"id":\s*"?(\d+)/.exec(line)?.[1])).toEqual(ids);
  });
});
