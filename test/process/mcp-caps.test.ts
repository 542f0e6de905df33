// Spending an assistant cannot burn: the live-search caps per session and per UTC day (the day's
// count in the usage ledger, shared by servers running one after the other or side by side), the
// ledger written after every call, --read-only and --tools. The server counts what really arrived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type Answer, type FakeServer, json, silence, startFakeServer } from '../helpers/fake-server.js';
import { apiRoot, readLedger, today, writeLedger } from '../helpers/ledger.js';
import { callTool, type McpProcess, readContent, startMcp } from '../helpers/mcp-session.js';
import { tempDir } from '../helpers/temp.js';

const SEARCH = { query: 'plumber', location: 'Austin' };
const found = json(200, {
  query: 'plumber',
  location: 'Austin',
  count: 1,
  results: [{ place_id: 'p1', name: 'Joe' }],
});
/** The same answer after a pause, so that searches of two servers overlap in time. */
const slowly =
  (ms: number, answer: Answer): Answer =>
  (res, request, destroy) =>
    setTimeout(() => answer(res, request, destroy), ms);

describe('live-search caps', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, { leads: [], meta: { page: 1, limit: 25, total: 0, totalPages: 0 } }),
    );
  });
  afterAll(() => server.close());
  const searchesSent = () => server.requests.filter((r) => r.method === 'POST').length;
  const envWith = (stateHome: string) => ({
    LEADCTL_BASE_URL: server.baseUrl,
    LEADCTL_API_KEY: 'lk_test_caps_0123456789',
    XDG_STATE_HOME: stateHome,
  });
  const search = (mcp: McpProcess) => callTool(mcp, 'search_businesses', SEARCH);

  it('--max-searches: the session refuses the next search, names both caps, and sends nothing', async () => {
    server.route('POST', '/api/v1/search', found);
    const mcp = await startMcp(['--max-searches', '2', '--no-confirm'], envWith(tempDir('mcp-state')));
    expect(mcp.client.getInstructions()).toContain('at most 2 searches per session and 50 per UTC day');
    const before = searchesSent();
    expect((await search(mcp)).isError).toBeFalsy();
    expect(readContent(await search(mcp)).ours).toContain(
      'Searches left: 0 (0 of 2 this session, 48 of 50 today)',
    );
    const refused = await search(mcp);
    expect(refused.isError).toBe(true);
    expect(readContent(refused).ours).toMatch(
      /^leadctl: this session's live-search cap is reached: it has sent 2 searches, .*no search was sent\nThis server sends at most 2 searches per session and 50 per UTC day \(set by the user\)\./,
    );
    expect(searchesSent() - before).toBe(2);
    // Reading goes on.
    expect((await callTool(mcp, 'list_leads', {})).isError).toBeFalsy();
  });

  it('a 5xx or a 429 retried before the answer does not count against the session cap', async () => {
    server.route(
      'POST',
      '/api/v1/search',
      json(503, { detail: 'busy' }),
      json(429, { detail: 'slow down' }, { 'retry-after': '1' }),
      found,
    );
    const mcp = await startMcp(['--max-searches', '2', '--no-confirm'], envWith(tempDir('mcp-state')));
    const before = searchesSent();
    const first = await search(mcp);
    expect(first.isError).toBeFalsy();
    expect(searchesSent() - before).toBe(3);
    // The day's count, from the ledger, takes the 503 as a search the server may have run.
    expect(readContent(first).ours).toContain('Searches left: 1 (1 of 2 this session, 48 of 50 today)');
    expect((await search(mcp)).isError).toBeFalsy();
  });

  it('--max-searches-per-day holds across two servers one after the other, sharing one ledger', async () => {
    server.route('POST', '/api/v1/search', found);
    const state = tempDir('mcp-state');
    const before = searchesSent();
    const first = await startMcp(['--max-searches-per-day', '3', '--no-confirm'], envWith(state));
    expect((await search(first)).isError).toBeFalsy();
    expect((await search(first)).isError).toBeFalsy();
    // Written after each call, while the first server still runs: a killed host would lose nothing.
    expect(readLedger(state).entries[0].days[today()]).toMatchObject({ requests: 2, searches: 2 });
    expect((await first.closeInput()).exitCode).toBe(0);

    const second = await startMcp(['--max-searches-per-day', '3', '--no-confirm'], envWith(state));
    expect((await search(second)).isError).toBeFalsy();
    const refused = await search(second);
    expect(refused.isError).toBe(true);
    expect(readContent(refused).ours).toMatch(
      /^leadctl: the daily live-search cap is reached: 3 searches were sent today \(UTC\) .* the user allows 3 a day .*no search was sent\nThis server sends at most 10 searches per session and 3 per UTC day/,
    );
    expect(searchesSent() - before).toBe(3);
  });

  it('two servers searching side by side never send more than the daily cap between them', async () => {
    server.route('POST', '/api/v1/search', slowly(150, found));
    const state = tempDir('mcp-state');
    const before = searchesSent();
    const [a, b] = await Promise.all([
      startMcp(['--max-searches-per-day', '3', '--no-confirm'], envWith(state)),
      startMcp(['--max-searches-per-day', '3', '--no-confirm'], envWith(state)),
    ]);
    const results = await Promise.all([search(a), search(b), search(a), search(b), search(a), search(b)]);
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(
      results.filter((r) => r.isError).every((r) => readContent(r).ours.includes('daily live-search cap')),
    ).toBe(true);
    expect(searchesSent() - before).toBe(3);
    expect(readLedger(state).entries[0].days[today()]).toMatchObject({ searches: 3 });
  });

  it("counts the day's searches already in the ledger from other leadctl runs", async () => {
    server.route('POST', '/api/v1/search', found);
    const state = tempDir('mcp-state');
    writeLedger(state, server.baseUrl, { requests: 60, searches: 50 });
    const before = searchesSent();
    const mcp = await startMcp(['--no-confirm'], envWith(state));
    const refused = await search(mcp);
    expect(readContent(refused).ours).toMatch(/^leadctl: the daily live-search cap is reached: 50 searches/);
    expect(searchesSent() - before).toBe(0);
    expect(readLedger(state).entries[0].baseUrl).toBe(apiRoot(server.baseUrl));
  });

  it('localhost and 127.0.0.1 are one server to the daily cap', async () => {
    server.route('POST', '/api/v1/search', found);
    const state = tempDir('mcp-state');
    const before = searchesSent();
    const numeric = await startMcp(['--max-searches-per-day', '1', '--no-confirm'], envWith(state));
    expect((await search(numeric)).isError).toBeFalsy();
    const named = await startMcp(['--max-searches-per-day', '1', '--no-confirm'], {
      ...envWith(state),
      LEADCTL_BASE_URL: server.baseUrl.replace('127.0.0.1', 'localhost'),
    });
    expect(readContent(await search(named)).ours).toMatch(
      /^leadctl: the daily live-search cap is reached: 1 searches/,
    );
    expect(searchesSent() - before).toBe(1);
  });

  it('a server killed in the middle of a call has already written what the API answered', async () => {
    const lead = (n: number) => ({ id: `k${n}`, name: `Lead ${n}`, saved_at: '2026-11-01T00:00:00Z' });
    const page1 = { leads: [1, 2].map(lead), meta: { page: 1, limit: 2, total: 6, totalPages: 3 } };
    // Page 1 comes back; page 2 never does.
    server.route('GET', '/api/v1/leads', json(200, page1), silence);
    const state = tempDir('mcp-state');
    const mcp = await startMcp([], envWith(state));
    const before = server.requests.length;
    void callTool(mcp, 'list_leads', { max_items: 6, limit: 2 }).catch(() => {});
    await expect.poll(() => server.requests.length - before, { timeout: 60_000 }).toBe(2);
    await mcp.kill();
    expect(readLedger(state).entries[0].days[today()]).toMatchObject({ requests: 1 });
  });
});

describe('which tools the host sees', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());
  const env = () => ({ LEADCTL_BASE_URL: server.baseUrl, LEADCTL_API_KEY: 'lk_test_tools_0123456789' });
  const toolNames = async (mcp: McpProcess) => (await mcp.client.listTools()).tools.map((t) => t.name).sort();

  it('--read-only serves no search, and says so in the instructions', async () => {
    const mcp = await startMcp(['--read-only'], env());
    expect(await toolNames(mcp)).toEqual(['find_saved_leads', 'list_leads', 'list_search_history', 'usage']);
    expect(mcp.client.getInstructions()).toContain('This session is read-only');
    const refused = await callTool(mcp, 'search_businesses', SEARCH);
    expect(refused.isError).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('--tools serves only the named tools', async () => {
    const mcp = await startMcp(['--tools', 'find_saved_leads, usage'], env());
    expect(await toolNames(mcp)).toEqual(['find_saved_leads', 'usage']);
  });

  it('a mistake in its arguments or profile starts the server anyway, and every call says what to fix', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--tools', 'list_leads,delete_everything'],
        /^leadctl: unknown tool "delete_everything" in --tools, so no tool can reach the API\.\nThe user has to set this up and restart the MCP server: the tools are: search_businesses, find_saved_leads, list_leads, list_search_history, usage\. Tell the user; calling again will not help\.$/,
      ],
      [
        ['--read-only', '--tools', 'search_businesses'],
        /^leadctl: --read-only serves no search_businesses, but --tools names it, so no tool/,
      ],
      [
        ['--profile', 'nosuch'],
        /^leadctl: .*nosuch.*, so no tool can reach the API\.\nThe user has to set this up/,
      ],
    ];
    for (const [args, expected] of cases) {
      const mcp = await startMcp(args, env());
      // The official client connects and lists the tools: no "connection closed".
      expect((await toolNames(mcp)).length, args.join(' ')).toBeGreaterThan(0);
      for (const [tool, toolArgs] of [
        ['list_leads', {}],
        ['usage', {}],
      ] as const) {
        const answer = await callTool(mcp, tool, toolArgs);
        expect(answer.isError, args.join(' ')).toBe(true);
        expect(readContent(answer).ours, args.join(' ')).toMatch(expected);
      }
      expect(mcp.stderr()).toMatch(/^leadctl: warning: mcp: .*; serving anyway/m);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('--help gives --max-wait the default the server uses', async () => {
    const help = await runCli(['mcp', '--help']);
    expect(help.stdout).toMatch(
      /--max-wait <s> +longest single wait on a rate limit before giving\s+up \(default here: 10\)/,
    );
    expect(help.stdout).not.toMatch(/--max-wait[^\n]*\n?[^\n]*\(default: 60\)/);
  });
});
