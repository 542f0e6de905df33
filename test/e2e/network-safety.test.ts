// The built leadctl where networks misbehave, as a user sees it: a search reset after the server read
// it (one POST, exit 6), a corporate CONNECT proxy, compressed answers and bombs, headers undici
// refuses, secrets in a base URL, control characters in a path, and a library host that must survive.

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type ConnectProxy, startConnectProxy } from '../helpers/connect-proxy.js';
import { type FakeServer, json, reset, startFakeServer } from '../helpers/fake-server.js';
import { readLedger, today } from '../helpers/ledger.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const page = { leads: [{ id: 'l1', name: 'Ace' }], meta: { page: 1, limit: 25, total: 1, totalPages: 1 } };
let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k'], {
    env: { XDG_CONFIG_HOME: tempDir('config'), LEADCTL_TEST_BACKOFF_BASE_MS: '1', ...env },
  });

/** One error line and at most a hint, with no sign of a crash. */
function expectCleanFailure(stderr: string, first: RegExp): string[] {
  // The lines a person reads; --json ends stderr with the same facts as one JSON line (agent-errors.test.ts).
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('{"error":'));
  expect(lines[0]).toMatch(first);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(stderr).not.toMatch(/please report|\n\s+at |Unhandled/);
  return lines;
}

describe('a search that may have run', () => {
  it('is sent once when the server resets after reading it: exit 6, and the user is told why', async () => {
    server.route('POST', '/api/v1/search', reset);
    const state = tempDir('state');
    const { exitCode, stdout, stderr } = await run(['search', 'plumber', '-l', 'Austin', '--json'], {
      XDG_STATE_HOME: state,
    });
    expect(exitCode).toBe(6);
    // Written, then no answer: the ledger counts it as a possible live search.
    expect(readLedger(state).entries[0].days[today()]).toEqual({ requests: 1, searches: 1, rateLimited: 0 });
    expect(stdout).toBe('');
    const lines = expectCleanFailure(stderr, /may have run on the server and spent a live search/);
    expect(lines[1]).toMatch(/repeat it deliberately/);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('is retried after a 503, with one Idempotency-Key for both attempts', async () => {
    server.route('POST', '/api/v1/search', json(503, {}), json(200, { results: [], count: 0 }));
    const { exitCode } = await run(['search', 'plumber', '-l', 'Austin', '--json']);
    expect(exitCode).toBe(0);
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('the networks users have', () => {
  let proxy: ConnectProxy;
  beforeEach(async () => {
    proxy = await startConnectProxy();
  });
  afterEach(() => proxy.close());

  it('goes through HTTP_PROXY (a CONNECT tunnel) and says so with --verbose', async () => {
    server.route('GET', '/api/v1/leads', json(200, page));
    const { exitCode, stdout, stderr } = await run(['leads', '--json', '--verbose'], {
      HTTP_PROXY: proxy.url.replace('http://', 'http://user:pw@'),
    });
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)[0].id).toBe('l1');
    expect(proxy.tunnels).toEqual([server.baseUrl.replace('http://', '')]);
    expect(stderr).toContain(
      `proxy: connecting through ${proxy.url.replace('http://', 'http://***@')}/ (from HTTP_PROXY)`,
    );
    expect(stderr).not.toContain('pw');
  });

  it('names the proxy, not the API host, when the proxy refuses the connection', async () => {
    const closed = await closedPort();
    const { exitCode, stdout, stderr } = await run(['leads', '--json'], {
      HTTP_PROXY: `http://user:pw@127.0.0.1:${closed}`,
    });
    expect(exitCode).toBe(6);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n').slice(-3, -1)).toEqual([
      `leadctl: cannot reach the proxy http://***@127.0.0.1:${closed}/ that HTTP_PROXY names (connection refused) after 4 attempts`,
      'check HTTP_PROXY, and that the proxy is running; NO_PROXY lists hosts to reach directly',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('goes direct for a host in no_proxy, as curl does', async () => {
    server.route('GET', '/api/v1/leads', json(200, page));
    const { exitCode, stderr } = await run(['leads', '--json', '--verbose'], {
      http_proxy: proxy.url,
      no_proxy: 'example.com,127.0.0.1',
    });
    expect(exitCode).toBe(0);
    expect(proxy.tunnels).toEqual([]);
    expect(stderr).not.toContain('proxy:');
  });

  it('reads a gzip answer; a gzip bomb is exit 7 and one line', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    server.route(
      'GET',
      '/api/v1/leads',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify(page)));
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(bomb);
      },
    );
    const good = await run(['leads', '--json']);
    expect(good.exitCode).toBe(0);
    expect(JSON.parse(good.stdout)[0].name).toBe('Ace');
    const bad = await run(['leads', '--json']);
    expect(bad.exitCode).toBe(7);
    expectCleanFailure(
      bad.stderr,
      /^leadctl: server answered 200 with a body larger than 16 MiB once decompressed \(gzip\)/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('a 100 KB response header is exit 7 in plain words, not an internal error', async () => {
    server.route('GET', '/api/v1/leads', (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(100_000) });
      res.end(JSON.stringify(page));
    });
    const { exitCode, stderr } = await run(['leads', '--json']);
    expect(exitCode).toBe(7);
    expectCleanFailure(
      stderr,
      /^leadctl: 127\.0\.0\.1:\d+ answered with response headers larger than leadctl reads/,
    );
  });
});

describe('messages tell no secret and stay one line', () => {
  it('a base URL with a password or a token is shown redacted', async () => {
    for (const baseUrl of [
      'https://user:hunter2@api.example.com',
      'https://api.example.com/?token=hunter2',
    ]) {
      const { exitCode, stderr } = await runCli(['leads', '--base-url', baseUrl, '--api-key', 'k'], {
        env: { XDG_CONFIG_HOME: tempDir('config') },
      });
      expect(exitCode).toBe(2);
      expect(stderr).not.toContain('hunter2');
    }
  });

  it('an api path with CR/LF is quoted on one line', async () => {
    const { exitCode, stderr } = await run(['api', '../../x\r\nInjected: yes']);
    expect(exitCode).toBe(2);
    expectCleanFailure(stderr, /^leadctl: "\.\.\/\.\.\/x Injected: yes" points outside/);
  });

  it('LEADCTL_MAX_BODY_BYTES=100 leads --sandbox exits 7 with one line and its hint', async () => {
    const { exitCode, stdout, stderr } = await runCli(['leads', '--sandbox'], {
      env: { XDG_CONFIG_HOME: tempDir('config'), LEADCTL_MAX_BODY_BYTES: '100' },
    });
    expect(exitCode).toBe(7);
    expect(stdout).toBe('');
    expectCleanFailure(stderr, /^leadctl: server answered 200 with a body larger than 100 bytes/);
  });
});

describe('items without an id', () => {
  it('a single page and a plain search write them as sent; --all refuses and says why', async () => {
    const leads = [{ id: null, name: 'No Id' }, { name: 'Missing' }];
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, { leads, meta: { page: 1, limit: 25, total: 2, totalPages: 1 } }),
    );
    server.route('POST', '/api/v1/search', json(200, { results: [{ place_id: null, name: 'P' }], count: 1 }));
    const one = await run(['leads', '--json']);
    expect(one.exitCode).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(leads);
    const search = await run(['search', 'plumber', '-l', 'Austin', '--json']);
    expect(search.exitCode).toBe(0);
    expect(JSON.parse(search.stdout)).toEqual([{ place_id: null, name: 'P' }]);
    const all = await run(['leads', '--all', '--json']);
    expect(all.exitCode).toBe(7);
    expect(all.stdout).toBe('');
    expectCleanFailure(
      all.stderr,
      /^leadctl: server answered page 1 with an item without an id; a full listing needs/,
    );
  });
});

describe('a host process that embeds the library', () => {
  it('survives every failure it catches, and is left without an exposed gc after a long paginate', async () => {
    // 10,100 leads, 100 a page: past the 10,000 items at which paging used to turn on --expose-gc.
    const total = 10_100;
    server.route('GET', '/api/v1/leads', (res, request) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const limit = Number(query.get('limit') ?? 25);
      const first = (Number(query.get('page') ?? 1) - 1) * limit;
      const leads = [];
      for (let i = first; i < Math.min(first + limit, total); i++)
        leads.push({ id: `l${i}`, name: 'x'.repeat(20) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          leads,
          meta: { page: 1 + first / limit, limit, total, totalPages: Math.ceil(total / limit) },
        }),
      );
    });
    const script = `
      import { LeadClient } from 'leadctl';
      import { runInNewContext } from 'node:vm';
      const caught = [];
      const client = new LeadClient({ baseUrl: process.env.BASE, apiKey: 'k', maxBodyBytes: 1000 });
      try { await client.listLeads({}); } catch (e) { caught.push(e.name); }
      try { new LeadClient({}); } catch (e) { caught.push(e.name); }
      await client.request('GET', 'leads').catch((e) => caught.push(e.name));
      try { for await (const x of client.paginate('leads', { since: 'yesterday' })) {} } catch (e) { caught.push(e.name); }
      const full = new LeadClient({ baseUrl: process.env.BASE, apiKey: 'k' });
      let items = 0;
      for await (const x of full.paginate('leads')) items++;
      await new Promise((r) => setTimeout(r, 200));
      await client.close();
      await full.close();
      console.log(JSON.stringify({ caught, items, gc: runInNewContext('typeof gc') }));`;
    const r = await execa('node', ['--input-type=module', '-e', script], {
      cwd: ROOT,
      reject: false,
      env: { BASE: server.baseUrl, LEADCTL_MAX_BODY_BYTES: 'abc' },
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({
      caught: ['ProtocolError', 'UsageError', 'UsageError', 'UsageError'],
      items: total,
      gc: 'undefined',
    });
  });
});

/** A port on 127.0.0.1 that nothing listens on: bound once by the OS, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
