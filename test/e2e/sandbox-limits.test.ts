// Daily request counters, the monthly live-search allowance and its cache, and both plan variants,
// driven by an injected clock so that resets happen without waiting.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

let clock = 0;
const open: SandboxHandle[] = [];

async function sandboxAt(isoTime: string, options: SandboxOptions = {}) {
  clock = Date.parse(isoTime);
  const sandbox = await startSandbox({ now: () => clock, ...options });
  open.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

async function call(sandbox: SandboxHandle, path: string, key = sandbox.apiKey, body?: unknown) {
  const response = await request(`${sandbox.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  const json: any = await response.body.json();
  return { status: response.statusCode, headers: response.headers, json };
}

const leads = (sandbox: SandboxHandle, key?: string) => call(sandbox, '/api/v1/leads?limit=1', key);
const search = (sandbox: SandboxHandle, query: string, key?: string) =>
  call(sandbox, '/api/v1/search', key, { query, location: 'Austin, TX' });

describe('daily request limit', () => {
  it('answers 429 with retryAfter at the next UTC midnight once the day is spent, then resets', async () => {
    const sandbox = await sandboxAt('2024-05-31T23:59:00Z', { dailyLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await leads(sandbox)).status).toBe(200);
    const limited = await leads(sandbox);
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({
      code: 'rate_limited',
      retryAfter: Date.parse('2024-06-01T00:00:00Z') / 1000,
      message: expect.stringMatching(/Daily limit of 3/),
    });
    expect(limited.headers['retry-after']).toBe('60');
    clock = Date.parse('2024-06-01T00:00:01Z');
    expect((await leads(sandbox)).status).toBe(200);
  });

  it('counts every authenticated request, 422s included, but not 401s or 404s', async () => {
    const sandbox = await sandboxAt('2024-05-01T12:00:00Z', { dailyLimit: 2 });
    expect((await call(sandbox, '/api/v1/leads?limit=0')).status).toBe(422);
    expect((await leads(sandbox, 'sk_wrong')).status).toBe(401);
    expect((await call(sandbox, '/api/v1/nowhere')).status).toBe(404);
    const second = await leads(sandbox);
    expect(second.status).toBe(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    expect((await leads(sandbox)).status).toBe(429);
  });

  it('keeps a separate counter per key', async () => {
    const sandbox = await sandboxAt('2024-05-01T12:00:00Z', { dailyLimit: 1 });
    expect((await leads(sandbox, sandbox.keys.free)).status).toBe(200);
    expect((await leads(sandbox, sandbox.keys.free)).status).toBe(429);
    expect((await leads(sandbox, sandbox.keys.pro)).status).toBe(200);
  });

  it("applies variant B's table: Free 100, Pro 1,000, Agency 10,000 requests a day", async () => {
    const sandbox = await sandboxAt('2024-05-01T12:00:00Z');
    const limits = { free: '100', pro: '1000', agency: '10000' } as const;
    for (const plan of ['free', 'pro', 'agency'] as const) {
      expect((await leads(sandbox, sandbox.keys[plan])).headers['x-ratelimit-limit']).toBe(limits[plan]);
    }
    for (let i = 1; i < 100; i++) await leads(sandbox, sandbox.keys.free);
    expect((await leads(sandbox, sandbox.keys.free)).status).toBe(429);
  });
});

describe('variant A: API access on Agency only', () => {
  it('refuses Free and Pro keys with 403 saying the plan lacks API access', async () => {
    const sandbox = await sandboxAt('2024-05-01T12:00:00Z', { variant: 'a', plan: 'free' });
    expect(sandbox.apiKey).toBe(sandbox.keys.free);
    for (const key of [sandbox.keys.free, sandbox.keys.pro]) {
      const { status, json } = await leads(sandbox, key);
      expect(status).toBe(403);
      expect(json.error).toMatchObject({
        code: 'plan_without_api_access',
        message: expect.stringMatching(/plan/),
      });
    }
    expect((await leads(sandbox, sandbox.keys.agency)).status).toBe(200);
  });

  it('gives Agency 500 requests a day', async () => {
    const sandbox = await sandboxAt('2024-05-01T12:00:00Z', { variant: 'a' });
    for (let i = 0; i < 500; i++) await leads(sandbox);
    const limited = await leads(sandbox);
    expect(limited.status).toBe(429);
    expect(limited.json.error.retryAfter).toBe(Date.parse('2024-05-02T00:00:00Z') / 1000);
  });

  it('spends one of 300 live searches a month per cache miss; cache hits spend none', async () => {
    const sandbox = await sandboxAt('2024-05-20T12:00:00Z', { variant: 'a' });
    for (let i = 0; i < 300; i++) expect((await search(sandbox, `plumber ${i}`)).status).toBe(200);
    const spent = await search(sandbox, 'electrician');
    expect(spent.status).toBe(429);
    expect(spent.json.error).toMatchObject({
      code: 'live_search_quota_exceeded',
      retryAfter: Date.parse('2024-06-01T00:00:00Z') / 1000,
    });
    const cached = await search(sandbox, 'Plumber   0');
    expect(cached.status).toBe(200);
    expect(cached.headers['x-sandbox-cache']).toBe('hit');
    clock = Date.parse('2024-06-01T00:00:00Z');
    expect((await search(sandbox, 'electrician')).status).toBe(200);
  });
});

describe('live-search allowance and cache', () => {
  it('does not spend the allowance on cache hits, and the cache expires after 24 hours', async () => {
    const sandbox = await sandboxAt('2024-05-10T08:00:00Z', { liveSearchLimit: 2 });
    expect((await search(sandbox, 'dentist')).headers['x-sandbox-cache']).toBe('miss');
    for (let i = 0; i < 5; i++)
      expect((await search(sandbox, 'dentist')).headers['x-sandbox-cache']).toBe('hit');
    expect((await search(sandbox, 'roofer')).status).toBe(200);
    expect((await search(sandbox, 'florist')).status).toBe(429);

    clock += 24 * 60 * 60 * 1000 - 1;
    expect((await search(sandbox, 'dentist')).headers['x-sandbox-cache']).toBe('hit');
    clock += 1;
    const expired = await search(sandbox, 'dentist');
    expect(expired.status).toBe(429);
    expect(expired.json.error.message).toMatch(/live searches/);
  });

  it('gives variant B plans their own monthly quota (Free: 50)', async () => {
    const sandbox = await sandboxAt('2024-05-10T08:00:00Z', { plan: 'free' });
    for (let i = 0; i < 50; i++) expect((await search(sandbox, `gym ${i}`)).status).toBe(200);
    expect((await search(sandbox, 'gym 50')).status).toBe(429);
    expect((await search(sandbox, 'gym 50', sandbox.keys.pro)).status).toBe(200);
  });
});
