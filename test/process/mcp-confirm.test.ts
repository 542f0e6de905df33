// Asking before spending: a live search through `leadctl mcp` needs the user's yes. The official SDK
// client plays a host with elicitation (the user is asked there) and one without (a quote first, then
// the search with its one-time token). The sandbox counts the searches it received.
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { callTool, type McpProcess, readContent, startMcp, textBlocks } from '../helpers/mcp-session.js';

const SEARCH = { query: 'plumber', location: 'Austin', radius: 5 };

describe('a live search needs the user’s yes', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox({ leads: 10, seed: 5 });
    env = { LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());
  const searchesSent = () => sandbox.requests.filter((r) => r.method === 'POST').length;
  const search = (mcp: McpProcess, args: Record<string, unknown> = SEARCH) =>
    callTool(mcp, 'search_businesses', args);

  it('a host without elicitation gets a quote first, and exactly one search after confirming', async () => {
    const mcp = await startMcp([], env);
    const before = searchesSent();
    const quoted = await search(mcp);
    expect(quoted.isError).toBeFalsy();
    const [summary] = textBlocks(quoted);
    expect(summary).toMatch(
      /^Not searched yet: .* Search for "plumber" near Austin within 5 miles\? It sends 1 request to the Lead Data API and spends 1 live search of the plan, unless the server answers it from its cache \(nobody can know that beforehand; leadctl counts it as spent\)\. Left: 10 of 10 searches this session and 50 of 50 today .*confirm: "[0-9a-f-]{36}" .*Nothing was sent\.$/,
    );
    const quote = (quoted.structuredContent as { quote: Record<string, unknown> }).quote;
    expect(quote).toMatchObject({ query: 'plumber', location: 'Austin', radius: 5, live_searches: 1 });
    // leadctl's own figures: not labelled as the third-party API's data.
    expect(quoted.content[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^leadctl's own/) });
    expect(searchesSent() - before).toBe(0);

    const confirmed = await search(mcp, { ...SEARCH, confirm: quote.confirm });
    expect(confirmed.isError, readContent(confirmed).ours).toBeFalsy();
    expect((confirmed.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(searchesSent() - before).toBe(1);

    // The token is spent: used again, it sends nothing.
    const again = await search(mcp, { ...SEARCH, confirm: quote.confirm });
    expect(again.isError).toBe(true);
    expect(readContent(again).ours).toMatch(
      /^leadctl: confirm ".*" is not an open quote .*nothing was sent\n/,
    );
    expect(searchesSent() - before).toBe(1);
  });

  it('a token altered, or given with other arguments, sends nothing', async () => {
    const mcp = await startMcp([], env);
    const before = searchesSent();
    const tokenOf = async (args: Record<string, unknown>) =>
      String(((await search(mcp, args)).structuredContent as { quote: { confirm: string } }).quote.confirm);
    const token = await tokenOf(SEARCH);
    // Its last digit changed (one that was 0 becomes 1: left as it was, it would be the token itself).
    const altered = await search(mcp, {
      ...SEARCH,
      confirm: `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`,
    });
    expect(readContent(altered).ours).toMatch(/^leadctl: confirm ".*" is not an open quote/);
    const other = await tokenOf(SEARCH);
    const elsewhere = await search(mcp, { ...SEARCH, location: 'Dallas', confirm: other });
    expect(elsewhere.isError).toBe(true);
    expect(readContent(elsewhere).ours).toMatch(
      /^leadctl: confirm ".*" was quoted for other arguments; nothing was sent/,
    );
    // Taken by the failed attempt: the right arguments do not bring it back.
    expect((await search(mcp, { ...SEARCH, confirm: other })).isError).toBe(true);
    expect(searchesSent() - before).toBe(0);
  });

  it('a host with elicitation asks the user: a yes runs one search, a no runs none', async () => {
    const asked: string[] = [];
    let answer: ElicitResult['action'] = 'accept';
    const mcp = await startMcp([], env, (message) => {
      asked.push(message);
      return answer;
    });
    const before = searchesSent();
    const accepted = await search(mcp);
    expect(accepted.isError, readContent(accepted).ours).toBeFalsy();
    expect(searchesSent() - before).toBe(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(
      /^Search for "plumber" near Austin within 5 miles\? It sends 1 request .* spends 1 live search of the plan, unless the server answers it from its cache .* Left: 10 of 10 searches this session and \d+ of 50 today/,
    );

    for (const no of ['decline', 'cancel'] as const) {
      answer = no;
      const declined = await search(mcp);
      expect(declined.isError).toBe(true);
      expect(readContent(declined).ours).toBe(
        'leadctl: the user did not agree to this search, so nothing was sent.\nDo not run it again unless the user asks for it.',
      );
    }
    expect(asked).toHaveLength(3);
    expect(searchesSent() - before).toBe(1);
  });

  it('--no-confirm searches at once, as before', async () => {
    const asked: string[] = [];
    const mcp = await startMcp(['--no-confirm'], env, (message) => {
      asked.push(message);
      return 'decline';
    });
    const before = searchesSent();
    expect((await search(mcp)).isError).toBeFalsy();
    expect(searchesSent() - before).toBe(1);
    expect(asked).toEqual([]);
  });

  it('a search the caps refuse is refused at once, not quoted', async () => {
    const mcp = await startMcp(['--max-searches', '1'], env);
    const quote = (await search(mcp)).structuredContent as { quote: { confirm: string } };
    expect((await search(mcp, { ...SEARCH, confirm: quote.quote.confirm })).isError).toBeFalsy();
    const refused = await search(mcp, { ...SEARCH, location: 'Dallas' });
    expect(refused.isError).toBe(true);
    expect(readContent(refused).ours).toMatch(/^leadctl: this session's live-search cap is reached/);
  });
});
