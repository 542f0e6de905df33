// The sandbox over real HTTP: auth, pagination, search, validation and protocol errors.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';

interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

async function call(sandbox: SandboxHandle, path: string, options: CallOptions = {}) {
  const key = options.key === undefined ? sandbox.apiKey : options.key;
  const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }) };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await request(`${sandbox.url}${path}`, {
    method: (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
    headers: { ...headers, ...options.headers },
    body,
  });
  const text = await response.body.text();
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  const json: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.statusCode, headers: response.headers, json };
}

const search = (sandbox: SandboxHandle, body: unknown, key?: string) =>
  call(sandbox, '/api/v1/search', { body, ...(key === undefined ? {} : { key }) });

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7 });
});
afterAll(() => sandbox.close());

describe('authentication', () => {
  it('answers 401 with a message when the key is missing, malformed or unknown', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer', 'Bearer sk_sandbox_nope']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const response = await call(sandbox, '/api/v1/leads', { key: null, headers });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.json.error.message).toMatch(/API key|Authorization/);
      expect(JSON.stringify(response.json)).not.toContain('sk_sandbox_nope');
    }
  });

  it('answers 403 for the deactivated account', async () => {
    const response = await call(sandbox, '/api/v1/leads', { key: sandbox.keys.deactivated });
    expect(response.status).toBe(403);
    expect(response.json.error).toMatchObject({ code: 'account_deactivated', message: expect.any(String) });
  });

  it('lets every plan in under variant B, with fixed documented keys', async () => {
    expect(sandbox.keys).toEqual({
      free: 'sk_sandbox_free_key_1111',
      pro: 'sk_sandbox_pro_key_2222',
      agency: 'sk_sandbox_agency_key_3333',
      deactivated: 'sk_sandbox_deactivated_key_4444',
    });
    expect(sandbox.apiKey).toBe(sandbox.keys.agency);
    for (const key of [sandbox.keys.free, sandbox.keys.pro, sandbox.keys.agency]) {
      expect((await call(sandbox, '/api/v1/history', { key })).status).toBe(200);
    }
  });
});

describe('GET /api/v1/leads', () => {
  it('defaults to page 1 of 25, newest first', async () => {
    const { status, json } = await call(sandbox, '/api/v1/leads');
    expect(status).toBe(200);
    expect(json.meta).toEqual({ page: 1, limit: 25, total: 300, totalPages: 12 });
    expect(json.leads).toHaveLength(25);
    expect(Object.keys(json.leads[0])).toEqual([
      'id',
      'name',
      'address',
      'phone',
      'website',
      'rating',
      'review_count',
      'category',
      'saved_at',
    ]);
  });

  it('serves every lead once across pages, newest first, and an empty page past the end', async () => {
    const all = [];
    for (let page = 1; page <= 3; page++) {
      const { json } = await call(sandbox, `/api/v1/leads?page=${page}&limit=100`);
      expect(json.meta).toEqual({ page, limit: 100, total: 300, totalPages: 3 });
      all.push(...json.leads);
    }
    expect(new Set(all.map((lead) => lead.id)).size).toBe(300);
    const times = all.map((lead) => Date.parse(lead.saved_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const past = await call(sandbox, '/api/v1/leads?page=4&limit=100');
    expect(past.json).toEqual({ leads: [], meta: { page: 4, limit: 100, total: 300, totalPages: 3 } });
  });

  it('says "none" in each way real servers do, null, "" and a left-out key, but not too often', async () => {
    const { json } = await call(sandbox, '/api/v1/leads?limit=100');
    for (const field of ['phone', 'website']) {
      const none = json.leads.filter((lead: Record<string, unknown>) => !lead[field]);
      expect(none.some((lead: Record<string, unknown>) => lead[field] === null)).toBe(true);
      expect(none.some((lead: Record<string, unknown>) => lead[field] === '')).toBe(true);
      expect(none.some((lead: Record<string, unknown>) => !(field in lead))).toBe(true);
      expect(none.length).toBeLessThan(30);
    }
    const phones = json.leads.map((lead: { phone?: string | null }) => lead.phone).filter(Boolean);
    expect(phones.some((phone: string) => /^\+1\d{10}$/.test(phone))).toBe(true);
    expect(phones.some((phone: string) => /^\+1 \d{3}-\d{3}-\d{4}$/.test(phone))).toBe(true);
  });

  it('lists the documented oddities first, in a fresh sandbox and in the leads saved later', async () => {
    const fresh = await startSandbox({ leads: 30, seed: 3 });
    try {
      const check = (leads: Record<string, unknown>[]) => {
        expect(leads[0]?.phone).toMatch(/^\+1 \d{3}-555-01\d\d$/);
        expect(leads[0]?.website).toMatch(/^https:\/\//);
        expect(leads[1]?.phone).toMatch(/^\+1\d{3}55501\d\d$/);
        expect(leads[2]).toMatchObject({ phone: null, website: null });
        expect(leads[3]).toMatchObject({ phone: '', website: '' });
        expect(Object.keys(leads[4] ?? {})).toEqual([
          'id',
          'name',
          'address',
          'rating',
          'review_count',
          'category',
          'saved_at',
        ]);
        expect(leads[5]).toMatchObject({
          name: 'Café Müller',
          address: expect.stringMatching(/, Boston, MA 02134$/),
        });
        expect(leads[6]).toMatchObject({ name: '東京ラーメン', rating: null, review_count: 0 });
        expect(leads[7]).toMatchObject({ name: 'Пекарня Колос', review_count: 1 });
        expect(leads[8]).toMatchObject({
          name: 'Ñandú Plomería',
          address: expect.stringMatching(/, NJ 07102$/),
        });
      };
      const before = (await call(fresh, '/api/v1/leads?limit=10')).json.leads;
      check(before);
      fresh.addLeads(12);
      const after = (await call(fresh, '/api/v1/leads?limit=22')).json.leads;
      check(after);
      expect(after.slice(12)).toEqual(before);
    } finally {
      await fresh.close();
    }
  });

  it.each([
    ['limit=101', 'limit', /at most 100/],
    ['limit=0', 'limit', /at least 1/],
    ['page=0', 'page', /at least 1/],
    ['page=-1', 'page', /whole number/],
    ['page=1.5', 'page', /whole number/],
    ['limit=abc', 'limit', /whole number/],
    ['limit=', 'limit', /whole number/],
  ])('refuses %s with 422 naming the parameter and why', async (query, field, reason) => {
    const { status, json } = await call(sandbox, `/api/v1/leads?${query}`);
    expect(status).toBe(422);
    expect(json.error.field).toBe(field);
    expect(json.error.message).toContain(field);
    expect(json.error.message).toMatch(reason);
  });
});

describe('GET /api/v1/history', () => {
  it('pages the pre-existing searches newest first', async () => {
    const fresh = await startSandbox({ history: 40 });
    try {
      const { json } = await call(fresh, '/api/v1/history?limit=30&page=2');
      expect(json.meta).toEqual({ page: 2, limit: 30, total: 40, totalPages: 2 });
      expect(json.history).toHaveLength(10);
      expect(Object.keys(json.history[0])).toEqual([
        'id',
        'query',
        'location',
        'results_count',
        'created_at',
      ]);
      expect((await call(fresh, '/api/v1/history?limit=100')).status).toBe(200);
      expect((await call(fresh, '/api/v1/history?limit=200')).status).toBe(422);
    } finally {
      await fresh.close();
    }
  });
});

describe('POST /api/v1/search', () => {
  it('returns businesses that fit the keyword, near the place, within the radius', async () => {
    const { status, json, headers } = await search(sandbox, {
      query: 'plumber',
      location: 'Austin, TX',
      radius: 5,
    });
    expect(status).toBe(200);
    expect(headers['x-sandbox-cache']).toBe('miss');
    expect(json.count).toBe(json.results.length);
    expect(json.count).toBeGreaterThan(0);
    expect(json).toMatchObject({ query: 'plumber', location: 'Austin, TX' });
    for (const result of json.results) {
      expect(result.category).toBe('Plumber');
      expect(result.address).toContain('Austin, TX');
      const miles = Math.hypot((result.lat - 30.2672) * 69, (result.lng + 97.7431) * 69 * Math.cos(0.5283));
      expect(miles).toBeLessThanOrEqual(5.05);
    }
    expect(json.results.map((result: { name: string }) => result.name).join(' ')).toMatch(/Plumbing|Rooter/);
  });

  it('answers an identical search (after normalizing) from the cache, and adds every search to history', async () => {
    const before = (await call(sandbox, '/api/v1/history?limit=1')).json;
    const first = await search(sandbox, { query: 'Hair  Salon', location: 'Denver, CO' });
    const again = await search(sandbox, { query: '  hair salon ', location: 'denver,co', radius: 10 });
    expect(first.headers['x-sandbox-cache']).toBe('miss');
    expect(again.headers['x-sandbox-cache']).toBe('hit');
    expect(again.json.results).toEqual(first.json.results);
    const other = await search(sandbox, { query: 'hair salon', location: 'Denver, CO', radius: 11 });
    expect(other.headers['x-sandbox-cache']).toBe('miss');

    const after = (await call(sandbox, '/api/v1/history?limit=3')).json;
    expect(after.meta.total).toBe(before.meta.total + 3);
    expect(after.history[0]).toMatchObject({
      query: 'hair salon',
      location: 'Denver, CO',
      results_count: other.json.count,
    });
    expect(after.history[1]).toMatchObject({ query: 'hair salon', location: 'denver,co' });
    expect(after.history[2]).toMatchObject({ query: 'Hair  Salon', results_count: first.json.count });
  });

  it.each([
    [{ location: 'Austin' }, 'query', /query is required/],
    [{ query: 'plumber' }, 'location', /location is required/],
    [{ query: '   ', location: 'Austin' }, 'query', /must not be empty/],
    [{ query: 'plumber', location: 42 }, 'location', /must be a string/],
    [{ query: 'plumber', location: 'Austin', radius: 51 }, 'radius', /at most 50/],
    [{ query: 'plumber', location: 'Austin', radius: 0 }, 'radius', /at least 1/],
    [{ query: 'plumber', location: 'Austin', radius: 2.5 }, 'radius', /whole number/],
    [{ query: 'plumber', location: 'Austin', radius: '5' }, 'radius', /whole number/],
  ])('refuses %j with 422 naming %s', async (body, field, reason) => {
    const { status, json } = await search(sandbox, body);
    expect(status).toBe(422);
    expect(json.error.field).toBe(field);
    expect(json.error.message).toMatch(reason);
  });

  it('names both fields when both are missing', async () => {
    const { json } = await search(sandbox, {});
    expect(json.error.details.map((problem: { field: string }) => problem.field)).toEqual([
      'query',
      'location',
    ]);
  });
});

describe('protocol errors, always as JSON with a message', () => {
  it('answers malformed JSON with 400', async () => {
    const { status, json } = await search(sandbox, '{"query": "plumber",');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringMatching(/not valid JSON/),
    });
    expect((await search(sandbox, '[1,2]')).status).toBe(400);
  });

  it('answers a body over 1 MB with 413, and keeps serving', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(1_100_000), location: 'Austin' });
    const { status, json } = await search(sandbox, big);
    expect(status).toBe(413);
    expect(json.error.message).toMatch(/1 MB/);
    expect((await call(sandbox, '/api/v1/leads?limit=1')).status).toBe(200);
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    const missing = await call(sandbox, '/api/v1/lead');
    expect(missing.status).toBe(404);
    expect(missing.json.error.message).toContain('/api/v1/lead');
    const wrong = await call(sandbox, '/api/v1/search');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json.error.message).toMatch(/POST/);
    expect((await call(sandbox, '/api/v1/leads', { method: 'DELETE' })).status).toBe(405);
  });

  it('answers a search that is not JSON with 415', async () => {
    const { status, json } = await call(sandbox, '/api/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: undefined,
    });
    expect(status).toBe(415);
    expect(json.error.message).toMatch(/application\/json/);
  });
});
