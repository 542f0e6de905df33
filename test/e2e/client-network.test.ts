// LeadClient over real sockets where networks misbehave: a POST that may have run is never sent again
// on its own, compressed bodies and bombs, headers undici cannot read, proxies, and what every error
// carries. Waits go through a fake clock.
import { createServer } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ProxyAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeadError } from '../../src/api/errors.js';
import { LeadClient, type LeadClientOptions } from '../../src/index.js';
import { type ConnectProxy, startConnectProxy } from '../helpers/connect-proxy.js';
import {
  createFakeClock,
  type FakeClock,
  type FakeServer,
  json,
  reset,
  silence,
  startFakeServer,
} from '../helpers/fake-server.js';

const KEY = 'lk_live_secret_0123456789';
const SEARCH = '/api/v1/search';
const LEADS = '/api/v1/leads';
const found = json(200, { results: [{ place_id: 'p1', name: 'Ace Plumbing' }], count: 1 });
const page = { leads: [{ id: 'l1', name: 'Ace' }], meta: { page: 1, limit: 100, total: 1, totalPages: 1 } };
let server: FakeServer;
let clock: FakeClock;
let client: LeadClient | undefined;

function makeClient(options: Partial<LeadClientOptions> = {}): LeadClient {
  client = new LeadClient({ baseUrl: server.baseUrl, apiKey: KEY, clock, random: () => 1, ...options });
  return client;
}

async function failure(promise: Promise<unknown>): Promise<LeadError> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as LeadError,
  );
}

const posts = () => server.requests.filter((r) => r.method === 'POST');

beforeEach(async () => {
  server = await startFakeServer();
  clock = createFakeClock();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

describe('a search that may have run is not sent again', () => {
  it('a reset after the server read the POST: one POST, exit 6, and says a live search may be spent', async () => {
    server.route('POST', SEARCH, reset);
    const error = await failure(makeClient().search({ query: 'plumber', location: 'Austin' }));
    expect(posts()).toHaveLength(1);
    expect(error).toMatchObject({ name: 'NetworkError', kind: 'reset', exitCode: 6, attempts: 1 });
    expect(error.message).toContain('may have run on the server and spent a live search');
    expect(error.hint).toContain('repeat it deliberately');
    expect(clock.sleeps).toEqual([]);
  });

  it('a keep-alive socket closed as the next search goes out: that search is not sent twice', async () => {
    server.route('POST', SEARCH, found, reset, found);
    // One connection, so the second search goes out on the socket the first one used.
    const lead = makeClient({ connections: 1 });
    await lead.search({ query: 'plumber', location: 'Austin' });
    const error = await failure(lead.search({ query: 'roofer', location: 'Austin' }));
    expect(error.exitCode).toBe(6);
    expect(posts().map((r) => JSON.parse(r.body).query)).toEqual(['plumber', 'roofer']);
    expect(server.connections()).toBe(1);
  });

  it('a timeout once sent is not retried either', async () => {
    server.route('POST', SEARCH, silence);
    const error = await failure(makeClient({ timeoutMs: 200 }).search({ query: 'a', location: 'b' }));
    expect(error).toMatchObject({ kind: 'timeout', exitCode: 6 });
    expect(error.message).toContain('may have run');
    expect(posts()).toHaveLength(1);
  });

  it('a 503 and a 429 say nothing ran: retried, every attempt with the same Idempotency-Key', async () => {
    server.route('POST', SEARCH, json(503, { detail: 'busy' }), json(429, { retryAfter: 1 }), found);
    const lead = makeClient();
    await lead.search({ query: 'plumber', location: 'Austin' });
    await lead.search({ query: 'plumber', location: 'Austin' });
    const keys = posts().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('a refused connection never reached the server: retried', async () => {
    const port = await closedPort();
    const lead = new LeadClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, clock, random: () => 1 });
    const error = await failure(lead.search({ query: 'a', location: 'b' }));
    await lead.close();
    expect(error).toMatchObject({ kind: 'refused', attempts: 4 });
    expect(clock.sleeps).toHaveLength(3);
  });

  it('GETs keep their retries after a reset', async () => {
    server.route('GET', LEADS, reset, json(200, page));
    const result = await makeClient().listLeads({});
    expect(result.leads).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe('answers undici or zlib must unpack', () => {
  it('asks for gzip and br and reads both', async () => {
    const body = JSON.stringify(page);
    server.route(
      'GET',
      LEADS,
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(body));
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
        res.end(brotliCompressSync(body));
      },
    );
    const lead = makeClient();
    expect((await lead.listLeads({})).leads[0]?.id).toBe('l1');
    expect((await lead.listLeads({})).leads[0]?.id).toBe('l1');
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, br');
  });

  it('a decompression bomb is a ProtocolError at the cap, not retried', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x20));
    server.route('GET', LEADS, (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const error = await failure(makeClient({ maxBodyBytes: 1_000_000 }).listLeads({}));
    expect(bomb.length).toBeLessThan(1_000_000);
    expect(error).toMatchObject({ name: 'ProtocolError', exitCode: 7 });
    expect(error.message).toContain('larger than 1000000 bytes once decompressed (gzip)');
    expect(server.requests).toHaveLength(1);
  });

  it('a 100 KB header is a ProtocolError in plain words', async () => {
    server.route('GET', LEADS, (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(100_000) });
      res.end(JSON.stringify(page));
    });
    const error = await failure(makeClient().listLeads({}));
    expect(error).toMatchObject({ name: 'ProtocolError', exitCode: 7 });
    expect(error.message).toMatch(/answered with response headers larger than leadctl reads/);
  });
});

describe('errors and options a host can rely on', () => {
  it('errors carry status, headers, url, attempts and retryAfterMs', async () => {
    server.route(
      'GET',
      LEADS,
      json(429, { detail: 'slow down' }, { 'retry-after': '3600', 'x-request-id': 'r1' }),
    );
    const error = await failure(makeClient({ maxWaitMs: 1000 }).listLeads({ page: 2 }));
    expect(error).toMatchObject({
      name: 'RateLimitedError',
      status: 429,
      url: `${server.baseUrl}/api/v1/leads?page=2`,
      attempts: 1,
      retryAfterMs: 3_600_000,
    });
    expect(error.headers?.['x-request-id']).toBe('r1');
  });

  it('a 429 whose reset is already past waits the normal backoff, and stops after the usual waits', async () => {
    const past = Math.floor(clock.now() / 1000) - 60;
    server.route('GET', LEADS, json(429, { retryAfter: past }));
    const error = await failure(makeClient({ backoffBaseMs: 500 }).listLeads({}));
    expect(error.exitCode).toBe(5);
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(server.requests).toHaveLength(6);
  });

  it('per-call retries, timeoutMs and maxWaitMs override the client', async () => {
    server.route('GET', LEADS, json(503, {}));
    const lead = makeClient({ retries: 3 });
    expect((await failure(lead.listLeads({}, { retries: 0 }))).attempts).toBe(1);
    server.route('GET', LEADS, silence);
    const slow = await failure(lead.listLeads({}, { timeoutMs: 100, retries: 0 }));
    expect(slow).toMatchObject({ kind: 'timeout' });
    expect(slow.message).toContain('within 0.1 s');
    server.route('GET', LEADS, json(429, {}, { 'retry-after': '30' }));
    expect((await failure(lead.listLeads({}, { maxWaitMs: 1000 }))).exitCode).toBe(5);
  });

  it('bad options are UsageErrors naming the option, rejected rather than thrown', async () => {
    expect(() => new LeadClient({} as LeadClientOptions)).toThrow(/^baseUrl is required/);
    expect(() => makeClient({ timeoutMs: -1 })).toThrow('timeoutMs must be a number of milliseconds above 0');
    const lead = makeClient();
    const call = lead.request('GET', `${lead.apiRoot}leads` as unknown as URL);
    await expect(call).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(/^url must be a URL/),
    });
    const since = lead.paginate('leads', { since: 'yesterday' })[Symbol.asyncIterator]().next();
    await expect(since).rejects.toMatchObject({
      name: 'UsageError',
      message: 'invalid `since` value "yesterday"',
    });
    await expect(lead.listLeads({}, { retries: -1 })).rejects.toThrow('call option retries must be');
    expect(server.requests).toHaveLength(0);
  });

  it('sends through a dispatcher it is given: an undici ProxyAgent to a CONNECT proxy', async () => {
    const proxy: ConnectProxy = await startConnectProxy();
    const dispatcher = new ProxyAgent(proxy.url);
    try {
      server.route('GET', LEADS, json(200, page));
      expect((await makeClient({ dispatcher }).listLeads({})).leads).toHaveLength(1);
      expect(proxy.tunnels).toEqual([server.baseUrl.replace('http://', '')]);
    } finally {
      await client?.close();
      client = undefined;
      await dispatcher.close();
      await proxy.close();
    }
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
