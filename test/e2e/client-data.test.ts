// LeadClient over real HTTP against a server whose shapes differ from the sandbox's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AttemptEvent,
  type DeprecationEvent,
  LeadClient,
  type LeadClientOptions,
} from '../../src/index.js';
import { createFakeClock, type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';

const KEY = 'lk_live_secret_0123456789';
let server: FakeServer;
let client: LeadClient | undefined;

function makeClient(options: Partial<LeadClientOptions> = {}): LeadClient {
  client = new LeadClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: createFakeClock(), ...options });
  return client;
}

beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

describe('LeadClient requests', () => {
  it('sends the key, user agent and Accept, and the paging query', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, { leads: [], meta: { page: 2, limit: 10, total: 0, totalPages: 0 } }),
    );
    await makeClient({ userAgent: 'leadctl/1.2.3' }).listLeads({ page: 2, limit: 10 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.url).toBe('/api/v1/leads?page=2&limit=10');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['user-agent']).toBe('leadctl/1.2.3');
    expect(request?.headers.accept).toBe('application/json');
  });

  it('leaves unset paging out of the query and defaults the user agent', async () => {
    server.route('GET', '/api/v1/history', json(200, { history: [], meta: { total: 0 } }));
    const page = await makeClient().listHistory({});
    expect(server.requests[0]?.url).toBe('/api/v1/history');
    expect(server.requests[0]?.headers['user-agent']).toBe('leadctl');
    expect(page.meta).toEqual({ page: 1, limit: 25, total: 0, totalPages: 0 });
  });

  it.each(['/api/v1', '/api/v1/', '/'])(
    'does not double /api/v1 when the base URL ends in %s',
    async (suffix) => {
      server.route('GET', '/api/v1/leads', json(200, { leads: [], meta: { total: 0 } }));
      await makeClient({ baseUrl: `${server.baseUrl}${suffix}` }).listLeads({});
      expect(server.requests[0]?.url).toBe('/api/v1/leads');
    },
  );

  it('posts a search as JSON, leaving an unset radius out', async () => {
    server.route(
      'POST',
      '/api/v1/search',
      json(200, { results: [], count: 0, query: 'plumber', location: 'Austin' }),
    );
    const c = makeClient();
    await c.search({ query: 'plumber', location: 'Austin' });
    await c.search({ query: 'plumber', location: 'Austin', radius: 25 });
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { query: 'plumber', location: 'Austin' },
      { query: 'plumber', location: 'Austin', radius: 25 },
    ]);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reuses keep-alive connections for sequential requests', async () => {
    server.route('GET', '/api/v1/leads', json(200, { leads: [], meta: { total: 0 } }));
    const c = makeClient();
    for (let i = 0; i < 20; i++) await c.listLeads({});
    expect(server.requests).toHaveLength(20);
    // Without keep-alive this would be 20; undici may open a second socket while the first is released.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });
});

describe('LeadClient reading odd shapes', () => {
  it('coerces string numbers, keeps nulls, missing and unknown fields, and completes meta', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, {
        leads: [
          {
            id: 'l1',
            name: 'Acme',
            rating: '4.5',
            review_count: '120',
            phone: null,
            crm_id: 'x-9',
            tags: ['a'],
          },
          { id: 7, name: null },
        ],
        meta: { total: '42' },
        server_time: 'ignored',
      }),
    );
    const page = await makeClient().listLeads({ page: 2, limit: 2 });
    // Typed for the library: every spec field present (null when the server left it out).
    const absent = { address: null, website: null, category: null, saved_at: null };
    expect(page.leads).toEqual([
      {
        id: 'l1',
        name: 'Acme',
        rating: 4.5,
        review_count: 120,
        phone: null,
        crm_id: 'x-9',
        tags: ['a'],
        ...absent,
      },
      { id: 7, name: null, phone: null, rating: null, review_count: null, ...absent },
    ]);
    expect(page.meta).toEqual({ page: 2, limit: 2, total: 42, totalPages: 21 });
  });

  it('completes a sparse search response and keeps extra top-level fields', async () => {
    server.route(
      'POST',
      '/api/v1/search',
      json(200, {
        results: [{ place_id: 'p1', lat: '30.2672', lng: '-97.7431', rating: null }],
        cached: true,
      }),
    );
    const response = await makeClient().search({ query: 'plumber', location: 'Austin' });
    expect(response).toEqual({
      results: [
        {
          place_id: 'p1',
          lat: 30.2672,
          lng: -97.7431,
          rating: null,
          ...{ name: null, address: null, phone: null, website: null, review_count: null, category: null },
        },
      ],
      cached: true,
      count: 1,
      query: 'plumber',
      location: 'Austin',
    });
  });
});

describe('LeadClient hooks', () => {
  it('reports each attempt with method, URL, status and attempt number, never the key', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(500, { error: 'boom' }),
      json(200, { leads: [], meta: { total: 0 } }),
    );
    const attempts: AttemptEvent[] = [];
    await makeClient({ hooks: { onAttempt: (e) => attempts.push(e) } }).listLeads({ page: 1 });
    expect(attempts.map(({ method, url, attempt, status }) => ({ method, url, attempt, status }))).toEqual([
      { method: 'GET', url: `${server.baseUrl}/api/v1/leads?page=1`, attempt: 1, status: 500 },
      { method: 'GET', url: `${server.baseUrl}/api/v1/leads?page=1`, attempt: 2, status: 200 },
    ]);
    expect(attempts.every((e) => typeof e.ms === 'number' && e.ms >= 0)).toBe(true);
    expect(JSON.stringify(attempts)).not.toContain(KEY);
  });

  it('reports a deprecation header once per client', async () => {
    const deprecated = json(
      200,
      { leads: [], meta: { total: 0 } },
      { Sunset: 'Sat, 01 Aug 2026 00:00:00 GMT' },
    );
    server.route('GET', '/api/v1/leads', deprecated);
    server.route(
      'GET',
      '/api/v1/history',
      json(200, { history: [], meta: { total: 0 } }, { Deprecation: 'true' }),
    );
    const notices: DeprecationEvent[] = [];
    const c = makeClient({ hooks: { onDeprecation: (e) => notices.push(e) } });
    await c.listLeads({});
    await c.listLeads({});
    await c.listHistory({});
    expect(notices).toEqual([{ sunset: 'Sat, 01 Aug 2026 00:00:00 GMT' }]);
  });

  it('reports a deprecation header seen on an error response too', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(422, { message: 'bad' }, { 'X-Api-Deprecation-Notice': 'v1 ends soon' }),
    );
    const notices: DeprecationEvent[] = [];
    const c = makeClient({ hooks: { onDeprecation: (e) => notices.push(e) } });
    await expect(c.listLeads({})).rejects.toThrow('server refused the request (422): bad');
    expect(notices).toEqual([{ notice: 'v1 ends soon' }]);
  });
});
