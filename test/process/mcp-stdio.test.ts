// `leadctl mcp` byte by byte: a client that writes its requests and closes stdin gets every answer,
// stdout carries JSON-RPC messages and nothing else, and the API key appears nowhere, whatever the
// server echoes.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'lk_live_mcp_secret_4e1c9d';
/** What the MCP server puts where a server echoed the key. */
const MASKED = '[redacted API key]';

/** initialize, initialized, then one tools/call per entry (ids 2, 3, …), as newline-delimited JSON. */
function conversation(calls: [string, Record<string, unknown>][], extraLines: string[] = []): string {
  const messages: unknown[] = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map(([name, args], i) => ({
      jsonrpc: '2.0',
      id: i + 2,
      method: 'tools/call',
      params: { name, arguments: args },
    })),
  ];
  return [...messages.map((m) => JSON.stringify(m)), ...extraLines].map((line) => `${line}\n`).join('');
}

async function runMcp(args: string[], input: string, env: Record<string, string> = {}) {
  const result = await spawnCli(['mcp', ...args], {
    input,
    env: { XDG_CONFIG_HOME: tempDir('mcp-config'), ...env },
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

interface Answer {
  jsonrpc: string;
  id: number;
  result?: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
}

/** Every stdout line must be a JSON-RPC 2.0 message; returns them by id. */
function protocolMessages(stdout: string): Map<number, Answer> {
  expect(stdout.endsWith('\n')).toBe(true);
  const byId = new Map<number, Answer>();
  for (const line of stdout.slice(0, -1).split('\n')) {
    const message = JSON.parse(line) as Answer;
    expect(message.jsonrpc, line).toBe('2.0');
    byId.set(message.id, message);
  }
  return byId;
}

describe('leadctl mcp on stdio', () => {
  it('answers every request of a client that closes stdin at once; stdout carries protocol messages only', async () => {
    const input = conversation(
      [
        ['list_leads', { limit: 3 }],
        ['search_businesses', { query: 'plumber', location: 'Austin' }],
        ['list_search_history', { max_items: 2 }],
        ['list_leads', { limit: 500 }],
      ],
      ['this line is not JSON'],
    );
    const { exitCode, stdout, stderr } = await runMcp(['--sandbox', '--verbose'], input);
    expect(exitCode).toBe(0);
    const answers = protocolMessages(stdout);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(answers.get(2)?.result?.structuredContent?.returned).toBe(3);
    expect(answers.get(3)?.result?.isError).toBeFalsy();
    expect(answers.get(4)?.result?.structuredContent?.returned).toBe(2);
    expect(answers.get(5)?.result?.isError).toBe(true);
    // What people read went to stderr: the request log, and a word about the line that was not JSON.
    expect(stderr).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/leads\?page=1&limit=3 -> 200 in \d+ ms \(attempt 1\)$/m,
    );
    expect(stderr).toMatch(/^leadctl: warning: mcp: .*JSON/m);
  });

  it('starts without an API configured, and answers every call with what the user must set up', async () => {
    const input = conversation([
      ['list_leads', {}],
      ['usage', {}],
    ]);
    const { exitCode, stdout, stderr } = await runMcp([], input);
    expect(exitCode).toBe(0);
    const answers = protocolMessages(stdout);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3]);
    for (const id of [2, 3]) {
      expect(answers.get(id)?.result?.isError).toBe(true);
      expect(answers.get(id)?.result?.content[0]?.text).toMatch(
        /^leadctl: no API base URL and no API key are configured, so no tool can reach the API\.\nThe user has to set this up and restart the MCP server: run: leadctl auth login/,
      );
    }
    expect(stderr).toMatch(
      /^leadctl: warning: mcp: no API base URL and no API key are configured; serving anyway/m,
    );
  });

  it('refuses a --max-requests that is not a whole number of at least 1', async () => {
    const { exitCode, stdout, stderr } = await runMcp(['--max-requests', '0', '--sandbox'], '');
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      "leadctl: invalid --max-requests '0': expected a whole number from 1 to 1000000\nsee: leadctl mcp --help\n",
    );
  });
});

/** A file of dist/ and every chunk it imports statically: what loads before its first dynamic import. */
function staticChunks(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const [, spec] of readFileSync(entry, 'utf8').matchAll(
    /^(?:import|\} from|import \{[^}]*\} from) ?"(\.[^"]+)";$/gm,
  )) {
    staticChunks(resolve(dirname(entry), spec as string), seen);
  }
  return seen;
}

describe('a start (initialize, tools/list)', () => {
  it('loads neither the MCP SDK nor zod: the SDK loads at the first other message', () => {
    const chunks = [...staticChunks(join(dirname(BIN), '../dist/mcp-server.js'))];
    expect(chunks.length).toBeGreaterThan(2); // the walk follows the chunks' own imports
    for (const marker of ['$ZodType', 'JSONRPCMessageSchema', 'class Protocol']) {
      expect(
        chunks.filter((file) => readFileSync(file, 'utf8').includes(marker)),
        marker,
      ).toEqual([]);
    }
  });

  it('answers as the SDK answers: the same initialize and tools/list before and after it loads', async () => {
    const initialize = (id: number, protocolVersion: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const lines = [
      initialize(1, '2025-03-26'),
      initialize(2, '1999-01-01'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { jsonrpc: '2.0', id: 4, method: 'ping' },
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      initialize(6, '2025-03-26'),
      initialize(7, '1999-01-01'),
    ];
    const input = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    const { exitCode, stdout } = await runMcp(['--read-only'], input);
    expect(exitCode).toBe(0);
    const answers = protocolMessages(stdout);
    const result = (id: number) => answers.get(id)?.result as unknown as Record<string, unknown>;
    expect([...answers.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(result(1)).toMatchObject({ protocolVersion: '2025-03-26', instructions: expect.any(String) });
    expect(result(1)).toEqual(result(6));
    expect(result(2).protocolVersion).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(result(2)).toEqual(result(7));
    expect(result(3).tools).toHaveLength(4);
    expect(result(3)).toEqual(result(5));
  });
});

describe('the API key never appears', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());

  it('not in results, summaries, errors or logs, even when the server echoes it everywhere', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, {
        leads: [{ id: KEY, name: `Acme (key ${KEY})`, [`note_${KEY}`]: KEY }],
        meta: { page: 1, limit: 25, total: 1 },
      }),
    );
    server.route('POST', '/api/v1/search', json(401, { message: `invalid API key ${KEY}` }));
    server.route('GET', '/api/v1/history', json(500, { detail: `boom for ${KEY}` }));
    const input = conversation([
      ['list_leads', {}],
      ['search_businesses', { query: KEY, location: 'Austin' }],
      ['list_search_history', {}],
    ]);
    const { exitCode, stdout, stderr } = await runMcp(
      ['--verbose', '--retries', '0', '--no-confirm'],
      input,
      {
        LEADCTL_BASE_URL: server.baseUrl,
        LEADCTL_API_KEY: KEY,
      },
    );
    expect(exitCode).toBe(0);
    // The key did reach the server, in the header only.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
    expect(stdout).not.toContain(KEY);
    expect(stderr).not.toContain(KEY);
    const answers = protocolMessages(stdout);
    const leads = answers.get(2)?.result?.structuredContent?.leads as Record<string, unknown>[];
    expect(leads).toEqual([{ id: MASKED, name: `Acme (key ${MASKED})`, [`note_${MASKED}`]: MASKED }]);
    // The server's words travel only quoted, in the data block.
    expect(answers.get(3)?.result?.content[0]?.text).toMatch(
      /^leadctl: the API rejected the API key \(HTTP 401\)\./,
    );
    expect(answers.get(3)?.result?.content[1]?.text).toContain(
      `"server_message_quoted":"invalid API key ${MASKED}"`,
    );
    expect(answers.get(4)?.result?.content[0]?.text).toMatch(/^leadctl: the API failed \(HTTP 500\)\.\n/);
    expect(answers.get(4)?.result?.content[1]?.text).toContain(
      `"server_message_quoted":"boom for ${MASKED}"`,
    );
  });
});
