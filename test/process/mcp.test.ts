// `leadctl mcp` as an assistant uses it: the SDK's own Client spawns the built binary over stdio,
// lists the tools and calls them against the sandbox and against a server that rate-limits and fails.
// The servers count requests, so "refused before sending" is checked where it matters: on the wire.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

interface Session {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
}

/** Starts `leadctl mcp <args>` with a clean environment and a private config folder; closed after the test. */
async function connect(args: string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: definedOnly(cleanEnv({ XDG_CONFIG_HOME: tempDir('mcp-config'), ...env })),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'leadctl-test', version: '1.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return { client, stderr: () => stderr };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function call(session: Session, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await session.client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The first text block: the summary, or an error's own words. */
function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

const LEADS = '/api/v1/leads';
const lead = (n: number) => ({ id: `lead-${n}`, name: `Lead ${n}`, saved_at: '2026-11-01T00:00:00Z' });
const leadsPage = (total = 1) => json(200, { leads: [lead(1)], meta: { page: 1, limit: 25, total } });

describe('leadctl mcp against the sandbox', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox({ leads: 60, history: 12, seed: 7, hostileData: true });
    env = { LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());
  const requestsSince = (before: number) => sandbox.requests.slice(before);

  it('lists exactly the five tools, each with a strict input schema, an output schema and a description', async () => {
    const session = await connect([], env);
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'find_saved_leads',
      'list_leads',
      'list_search_history',
      'search_businesses',
      'usage',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // Only usage stays on this machine: it reads the local ledger.
      expect(tool.annotations?.openWorldHint, tool.name).toBe(tool.name !== 'usage');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.usage?.annotations?.readOnlyHint).toBe(true);
    const search = byName.search_businesses;
    expect(search?.inputSchema.required).toEqual(['query', 'location']);
    expect(search?.inputSchema.properties?.radius).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 50,
    });
    expect(search?.description).toContain('live search');
    expect(search?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.find_saved_leads?.annotations?.readOnlyHint).toBe(true);
    for (const name of ['list_leads', 'list_search_history']) {
      const list = byName[name];
      expect(list?.inputSchema.required ?? []).toEqual([]);
      expect(Object.keys(list?.inputSchema.properties ?? {}).sort()).toEqual([
        'fields',
        'limit',
        'max_items',
        'next_page',
        'page',
        'since',
      ]);
      expect(list?.inputSchema.properties?.limit).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 100,
      });
      expect(list?.inputSchema.properties?.max_items).toMatchObject({ type: 'integer', maximum: 500 });
      expect(list?.annotations?.readOnlyHint).toBe(true);
    }
  });

  it('search_businesses returns the results as structured data and a sanitized one-line summary', async () => {
    const session = await connect(['--no-confirm'], env);
    const before = sandbox.requests.length;
    const result = await call(session, 'search_businesses', {
      query: 'plumber',
      location: 'Austin',
      radius: 5,
    });
    const data = structured(result);
    const results = data.results as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(0);
    expect(data.count).toBe(results.length);
    expect(results[0]).toHaveProperty('place_id');
    expect(textOf(result)).toMatch(
      /^\d+ results? for "plumber" near Austin within 5 miles\. Searches left: 9 \(9 of 10 this session, \d+ of 50 today\)\. Requests left in this session: 49 of 50\.$/,
    );
    expect(requestsSince(before).map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/v1/search', { query: 'plumber', location: 'Austin', radius: 5 }],
    ]);
  });

  it('list_leads: one page with where the next one is; server text stays data, summaries carry no controls', async () => {
    const session = await connect([], env);
    const result = await call(session, 'list_leads', { page: 2, limit: 10 });
    const data = structured(result);
    expect(data).toMatchObject({
      returned: 10,
      page: 2,
      limit: 10,
      total: 60,
      total_pages: 6,
      next_page: 'list_leads:page:3',
    });
    expect(textOf(result)).toBe(
      'Showing 11–20 of 60 leads (page 2 of 6). Next: page 3.\nRequests left in this session: 49 of 50.',
    );
    // hostileData: escape sequences arrive intact in the data, where they are plainly data.
    const names = (data.leads as { name?: unknown }[]).map((l) => String(l.name));
    expect(names.some((name) => name.includes('\u001b'))).toBe(true);
    // next_page passed back as given, with the same other arguments: the next page.
    const next = structured(
      await call(session, 'list_leads', { page: 2, limit: 10, next_page: data.next_page }),
    );
    expect(next).toMatchObject({ returned: 10, page: 3, next_page: 'list_leads:page:4' });
  });

  it('list_search_history pages through the list up to max_items, and since stops at the first older entry', async () => {
    const session = await connect([], env);
    const before = sandbox.requests.length;
    const capped = structured(await call(session, 'list_search_history', { max_items: 7, limit: 3 }));
    expect(capped).toMatchObject({ returned: 7, reached_max_items: true });
    // 12 entries, plus one per search another test ran meanwhile.
    expect(capped.total).toBeGreaterThanOrEqual(12);
    expect(requestsSince(before).map((r) => r.query.page)).toEqual(['1', '2', '3']);

    const all = (capped.history as { created_at: string }[]).map((h) => h.created_at);
    const cut = all[3] as string;
    const newer = structured(await call(session, 'list_search_history', { since: cut }));
    const times = (newer.history as { created_at: string }[]).map((h) => h.created_at);
    expect(times.length).toBeGreaterThan(0);
    expect(times.every((t) => t > cut)).toBe(true);
  });

  it('invalid arguments give a clear isError result and send nothing', async () => {
    const session = await connect([], env);
    const before = sandbox.requests.length;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'search_businesses',
        { query: 'plumber', location: 'Austin', radius: 99 },
        /expected a whole number from 1 to 50 at radius/,
      ],
      ['search_businesses', { query: 'plumber' }, /location/],
      ['search_businesses', { query: '  ', location: 'Austin' }, /the query must not be empty/],
      [
        'search_businesses',
        { query: 'plumber', location: 'Austin', city: 'Austin' },
        /Unrecognized key: "city"/,
      ],
      ['list_leads', { limit: 0 }, /expected a whole number from 1 to 100 at limit/],
      ['list_leads', { max_items: 501 }, /expected a whole number from 1 to 500 at max_items/],
      [
        'list_search_history',
        { since: 'last tuesday' },
        /^leadctl: invalid `since` value "last tuesday"\nuse an ISO date/,
      ],
    ];
    for (const [tool, args, expected] of cases) {
      const result = await call(session, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(expected);
    }
    expect(requestsSince(before)).toEqual([]);
  });

  it('usage: what this machine sent today and this month, this session included, sending nothing itself', async () => {
    const state = { XDG_STATE_HOME: tempDir('mcp-state') };
    const first = await connect(['--max-requests', '5', '--no-confirm'], { ...env, ...state });
    const before = sandbox.requests.length;
    structured(await call(first, 'list_leads', {}));
    structured(await call(first, 'search_businesses', { query: 'plumber', location: 'Austin' }));
    const during = await call(first, 'usage', {});
    expect(structured(during)).toMatchObject({
      thisMachineOnly: true,
      today: { requests: 2, searches: 1, rateLimited: 0 },
      month: { requests: 2, searches: 1 },
      plan: null,
      session: { requestsSent: 2, maxRequests: 5 },
    });
    expect(textOf(during)).toMatch(
      /^Sent from this machine only .*today \(\d{4}-\d\d-\d\d UTC\) 2 requests, 1 searches/,
    );
    expect(textOf(during)).toContain('Requests left in this session: 3 of 5.');
    // A local count: not labelled as the API's data, and without the user's home folder in it.
    const shown = JSON.stringify(during);
    expect(shown).not.toContain('untrusted-data');
    expect(shown).not.toContain(state.XDG_STATE_HOME);
    expect(requestsSince(before)).toHaveLength(2);
    await first.client.close();
    // The ledger was written when that session ended: a new one starts from it.
    const second = await connect([], { ...env, ...state });
    // (The first server may still be writing as it exits.)
    await expect
      .poll(async () => structured(await call(second, 'usage', {})))
      .toMatchObject({ today: { requests: 2, searches: 1 }, session: { requestsSent: 0 } });
    expect(requestsSince(before)).toHaveLength(2);
  });

  it('--max-requests: once spent, tools answer with an error that says so, and nothing more is sent', async () => {
    const session = await connect(['--max-requests', '2', '--no-confirm'], env);
    const before = sandbox.requests.length;
    expect(textOf(await call(session, 'list_leads', {}))).toContain('Requests left in this session: 1 of 2.');
    structured(await call(session, 'list_search_history', {}));
    for (const [tool, args] of [
      ['list_leads', {}],
      ['search_businesses', { query: 'plumber', location: 'Austin' }],
    ] as const) {
      const refused = await call(session, tool, args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        "leadctl: this session's request budget is spent: it has sent the 2 requests the user allowed it (--max-requests 2), so nothing more is sent\n" +
          'Tell the user; only they can allow more, by restarting the leadctl MCP server (with a higher --max-requests if needed).',
      );
    }
    expect(requestsSince(before)).toHaveLength(2);
  });

  it('a budget spent while paging returns what was fetched, says why it stopped, and sends no more', async () => {
    const session = await connect(['--max-requests', '3'], env);
    const before = sandbox.requests.length;
    const data = structured(await call(session, 'list_leads', { max_items: 50, limit: 10 }));
    expect(data).toMatchObject({ returned: 30, reached_max_items: false });
    expect(data.stopped_early).toMatch(/^leadctl: this session's request budget is spent/);
    expect(requestsSince(before)).toHaveLength(3);
  });

  it('--sandbox serves every tool from the built-in sandbox', async () => {
    const session = await connect(['--sandbox', '--no-confirm']);
    structured(await call(session, 'search_businesses', { query: 'dentist', location: 'Denver' }));
    structured(await call(session, 'list_leads', { limit: 5 }));
    structured(await call(session, 'list_search_history', { max_items: 30 }));
  });
});

describe('leadctl mcp against a server that rate-limits and fails', () => {
  let server: FakeServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeServer();
    env = { LEADCTL_BASE_URL: server.baseUrl, LEADCTL_API_KEY: 'lk_test_mcp_0123456789' };
  });
  afterAll(() => server.close());
  /** Routes GET /leads to `answers` afresh and returns the requests it receives from now on. */
  function scriptLeads(...answers: Parameters<FakeServer['route']>[2][]) {
    server.route('GET', LEADS, ...answers);
    const before = server.requests.length;
    return () => server.requests.slice(before);
  }

  it('a 429 whose wait fits --max-wait is waited on, then the call succeeds', async () => {
    const session = await connect([], env);
    const sent = scriptLeads(json(429, { error: 'slow down', retryAfter: 1 }), leadsPage());
    const data = structured(await call(session, 'list_leads', {}));
    expect(data).toMatchObject({ returned: 1, total: 1 });
    expect(sent()).toHaveLength(2);
  });

  it('a 429 longer than the default --max-wait of 10 s is a tool error with the reset time, at once; then tools refuse until then', async () => {
    // Its own state folder: the pause is kept there, and would hold up the other tests.
    const state = { XDG_STATE_HOME: tempDir('mcp-state') };
    const session = await connect([], { ...env, ...state });
    // 30 s: the CLI's default --max-wait (60) would wait; the MCP server's must not.
    const resetAt = Math.floor(Date.now() / 1000) + 30;
    const sent = scriptLeads(json(429, { message: 'daily limit reached', retryAfter: resetAt }), leadsPage());
    const result = await call(session, 'list_leads', {});
    expect(result.isError).toBe(true);
    const iso = new Date(resetAt * 1000).toISOString();
    expect(textOf(result)).toMatch(
      new RegExp(
        `^leadctl: the API's rate limit is reached \\(HTTP 429\\); it allows requests again at ${iso} \\(in \\d+s\\)\\.\\n`,
      ),
    );
    expect(sent()).toHaveLength(1);
    // Until the reset, every tool that sends answers at once, sending nothing; usage still works.
    for (const [tool, args] of [
      ['list_leads', {}],
      ['find_saved_leads', { text: 'x' }],
      ['search_businesses', { query: 'plumber', location: 'Austin' }],
    ] as const) {
      const refused = await call(session, tool, args);
      expect(refused.isError, tool).toBe(true);
      expect(textOf(refused)).toMatch(
        new RegExp(`^leadctl: the API's rate limit is reached until ${iso} .*no request was sent`),
      );
      expect(textOf(refused)).toContain('at most 10 searches per session and 50 per UTC day');
    }
    expect(structured(await call(session, 'usage', {}))).toMatchObject({
      session: { rateLimitedUntil: iso },
    });
    // A restarted server remembers it.
    const restarted = await connect([], { ...env, ...state });
    expect(textOf(await call(restarted, 'list_leads', {}))).toMatch(
      /^leadctl: the API's rate limit is reached until /,
    );
    expect(sent()).toHaveLength(1);
    // For that key only: with the key the user changed to, requests go out.
    const rekeyed = await connect([], { ...env, ...state, LEADCTL_API_KEY: 'lk_test_mcp_new_key_987654' });
    structured(await call(rekeyed, 'list_leads', {}));
    expect(sent()).toHaveLength(2);
  });

  it('--max-wait sets how long a rate limit may be waited on', async () => {
    // Its own state folder: the 1 s pause that follows is kept there.
    const session = await connect(['--max-wait', '0'], { ...env, XDG_STATE_HOME: tempDir('mcp-state') });
    const sent = scriptLeads(json(429, { retryAfter: 1 }));
    const result = await call(session, 'list_leads', {});
    expect(textOf(result)).toMatch(
      /^leadctl: the API's rate limit is reached \(HTTP 429\); it allows requests again at /,
    );
    expect(sent()).toHaveLength(1);
  });

  it('a 5xx is retried; one that persists is a tool error in the CLI words', async () => {
    const session = await connect(['--retries', '1'], env);
    const recovered = scriptLeads(json(502, { detail: 'bad gateway' }), leadsPage());
    structured(await call(session, 'list_leads', {}));
    expect(recovered()).toHaveLength(2);

    const failing = scriptLeads(json(500, { detail: 'database \u001b[31mdown' }));
    const result = await call(session, 'list_leads', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'leadctl: the API failed (HTTP 500) after 2 attempts.\n' +
        'The service may be having trouble: try once more later, or tell the user.',
    );
    // The server's words are quoted in the data block only, its escape shown, as the CLI shows it.
    expect(result.content[1]).toMatchObject({ type: 'text' });
    expect((result.content[1] as { text: string }).text).toContain(
      '"server_message_quoted":"database \\\\x1b[31mdown"',
    );
    expect(failing()).toHaveLength(2);
  });

  it("the summary is made of the model's own arguments: the server's echo stays in the data", async () => {
    const session = await connect(['--no-confirm'], env);
    const echoed = 'plumber\u001b]8;;https://evil.example\u0007';
    server.route(
      'POST',
      '/api/v1/search',
      json(200, { results: [], count: 0, query: echoed, location: 'Austin' }),
    );
    const result = await call(session, 'search_businesses', { query: 'plumber', location: 'Austin' });
    expect(textOf(result)).toBe(
      '0 results for "plumber" near Austin. Searches left: 9 (9 of 10 this session, 49 of 50 today). Requests left in this session: 49 of 50.',
    );
    expect(structured(result).query).toBe(echoed);
  });

  it('retries count against the budget: a retry the budget does not cover is never sent', async () => {
    const session = await connect(['--max-requests', '1'], env);
    const sent = scriptLeads(json(503, { detail: 'busy' }), leadsPage());
    const result = await call(session, 'list_leads', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^leadctl: this session's request budget is spent/);
    expect(sent()).toHaveLength(1);
  });
});
