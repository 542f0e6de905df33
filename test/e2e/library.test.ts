// The library face, as a user's program imports it: by package name, from the built dist/.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  LeadClient,
  type LeadClientOptions,
  type LeadError,
  RateLimitedError,
  type RateLimitInfo,
  UsageError,
} from '../../src/index.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import {
  createFakeClock,
  type FakeClock,
  type FakeServer,
  json,
  startFakeServer,
} from '../helpers/fake-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 130 });
});
afterAll(() => sandbox.close());

describe("import { LeadClient } from 'leadctl'", () => {
  it('runs the example of docs/library.md against the sandbox', async () => {
    const r = await execa('node', ['examples/library.mjs'], {
      cwd: ROOT,
      reject: false,
      env: { LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey },
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^130 saved leads; newest: \S.*\n\d+ plumbers near Austin\n\d+ leads saved in the last 7 days have a phone number$/,
    );
    const pages = sandbox.requests.filter((q) => q.path === '/api/v1/leads' && q.query.limit === '100');
    expect(pages.length).toBeGreaterThanOrEqual(2);
  });

  it('is the program docs/library.md shows', () => {
    const page = readFileSync(resolve(ROOT, 'docs/library.md'), 'utf8');
    const program = readFileSync(resolve(ROOT, 'examples/library.mjs'), 'utf8');
    const block = /```js\n\/\/ examples\/library\.mjs \(run by the tests\)\n([\s\S]*?)```/.exec(page)?.[1];
    expect(program.endsWith(block ?? '(no block)')).toBe(true);
  });

  it('exports the error classes and paginate, with types', async () => {
    const script = `
      import * as lib from 'leadctl';
      import { existsSync } from 'node:fs';
      const names = ['LeadClient','paginate','LeadError','AuthError','ForbiddenError','ValidationError','RateLimitedError','ServerError','NetworkError','ProtocolError','NotFoundError','UsageError'];
      const missing = names.filter((n) => typeof lib[n] !== 'function');
      const types = existsSync(new URL(import.meta.resolve('leadctl').replace('index.js', 'index.d.ts')));
      console.log(JSON.stringify({ missing, types, authIsLeadError: new lib.AuthError('x', { status: 401 }) instanceof lib.LeadError }));`;
    const r = await execa('node', ['--input-type=module', '-e', script], { cwd: ROOT, reject: false });
    expect(r.stderr).toBe('');
    expect(JSON.parse(String(r.stdout))).toEqual({ missing: [], types: true, authIsLeadError: true });
  });
});

// What a program embedding the client sees, in-process against servers on 127.0.0.1: the sandbox, or
// an odd server that answers as each test scripts it (and records what it received).
describe('LeadClient as a library user calls it', () => {
  const KEY = 'lk_live_secret_0123456789';
  const SEARCH = '/api/v1/search';
  const LEADS = '/api/v1/leads';
  const found = json(200, { results: [], count: 0, query: 'plumber', location: 'Austin' });
  const onePage = json(200, { leads: [], meta: { page: 1, limit: 25, total: 0, totalPages: 0 } });
  let server: FakeServer;
  let clock: FakeClock;
  const clients: LeadClient[] = [];
  const client = (options: Partial<LeadClientOptions> = {}) => {
    const made = new LeadClient({ baseUrl: server.baseUrl, apiKey: KEY, clock, random: () => 1, ...options });
    clients.push(made);
    return made;
  };
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the call should have failed'),
      (error: unknown) => error as LeadError & { status?: number; resetAt?: Date },
    );

  beforeEach(async () => {
    server = await startFakeServer();
    clock = createFakeClock();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((made) => made.close()));
    await server.close();
  });

  it('close() twice resolves; a call after it rejects with a UsageError and sends nothing', async () => {
    server.route('GET', LEADS, onePage);
    const lead = client();
    await lead.listLeads({});
    await lead.close();
    await expect(lead.close()).resolves.toBeUndefined();
    const error = await rejection(lead.listLeads({}));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('this LeadClient is closed');
    expect(server.requests).toHaveLength(1);
  });

  it('paginate() stops at the abort: no item after it is handed out, and it rejects with AbortedError', async () => {
    const sandbox30 = await startSandbox({ leads: 30 });
    try {
      const lead = new LeadClient({ baseUrl: sandbox30.url, apiKey: sandbox30.apiKey });
      clients.push(lead);
      const controller = new AbortController();
      const reason = new Error('enough');
      const seen: unknown[] = [];
      const error = await rejection(
        (async () => {
          for await (const item of lead.paginate('leads', { signal: controller.signal, limit: 10 })) {
            seen.push(item);
            if (seen.length === 5) controller.abort(reason);
          }
        })(),
      );
      expect(seen).toHaveLength(5);
      expect(error).toBeInstanceOf(AbortedError);
      expect(error.cause).toBe(reason);
    } finally {
      await sandbox30.close();
    }
  });

  it('idempotencyKey: the caller’s key on every attempt of that call; another call gets its own', async () => {
    server.route('POST', SEARCH, json(503, {}), json(503, {}), found, found);
    const lead = client();
    await lead.search({ query: 'plumber', location: 'Austin' }, { idempotencyKey: 'order-42-search' });
    await lead.search({ query: 'plumber', location: 'Austin' });
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys.slice(0, 3)).toEqual(['order-42-search', 'order-42-search', 'order-42-search']);
    expect(keys[3]).toMatch(/^[0-9a-f-]{36}$/);
    server.route('GET', LEADS, onePage);
    await lead.listLeads({}, { idempotencyKey: 'list-1' });
    expect(server.requests.at(-1)?.headers['idempotency-key']).toBe('list-1');
    const bad = await rejection(lead.listLeads({}, { idempotencyKey: 'two words' }));
    expect(bad.message).toBe(
      'call option idempotencyKey must be 1 to 255 visible ASCII characters, such as a UUID (got "two words")',
    );
    expect(server.requests).toHaveLength(5);
  });

  it('headers: the client’s on every request, a call’s over them; Authorization is refused, never replaced', async () => {
    server.route('GET', LEADS, onePage);
    const lead = client({ headers: { 'X-Team': 'north', 'User-Agent': 'crm-sync/2.1' } });
    await lead.listLeads({});
    await lead.listLeads({}, { headers: { 'x-team': 'south', 'X-Trace': 't-1' } });
    const [first, second] = server.requests.map((request) => request.headers);
    expect(first).toMatchObject({
      'x-team': 'north',
      'user-agent': 'crm-sync/2.1',
      authorization: `Bearer ${KEY}`,
    });
    expect(second).toMatchObject({ 'x-team': 'south', 'x-trace': 't-1', authorization: `Bearer ${KEY}` });
    expect(() => client({ headers: { Authorization: 'Bearer someone-else' } })).toThrow(
      expect.objectContaining({
        name: 'UsageError',
        message: 'headers may not set Authorization',
        hint: 'the key goes in `apiKey`, where logs and errors mask it',
      }),
    );
    const perCall = await rejection(lead.listLeads({}, { headers: { authorization: 'Bearer x' } }));
    expect(perCall.message).toBe('call option headers may not set authorization');
    const newline = await rejection(lead.listLeads({}, { headers: { 'X-Note': 'a\r\nX-Evil: 1' } }));
    expect(newline.message).toMatch(/^call option headers: "X-Note" must be a header name with a one-line/);
    expect(server.requests).toHaveLength(2);
  });

  it('error.requestId comes from X-Request-Id or a common variant of it', async () => {
    server.route('GET', LEADS, json(422, { detail: 'bad page' }, { 'x-request-id': 'req_7Hq2' }));
    expect((await rejection(client().listLeads({}))).requestId).toBe('req_7Hq2');
    server.route('POST', SEARCH, json(500, {}, { 'request-id': 'req_stripe_like' }));
    expect((await rejection(client({ retries: 0 }).search({ query: 'a', location: 'b' }))).requestId).toBe(
      'req_stripe_like',
    );
    server.route('GET', LEADS, json(401, {}, { 'x-amzn-requestid': 'c0ffee' }));
    expect((await rejection(client().listLeads({}))).requestId).toBe('c0ffee');
  });

  it('withResponse(): the typed result beside the status, headers and request id of its answer', async () => {
    const headers = { 'x-request-id': 'req_1', 'x-ratelimit-remaining': '41' };
    server.route('GET', LEADS, json(503, {}), json(200, { leads: [], meta: { total: 0 } }, headers));
    const lead = client();
    const { data, response } = await lead.listLeads({ page: 1, limit: 5 }).withResponse();
    expect(data.meta).toEqual({ page: 1, limit: 5, total: 0, totalPages: 0 });
    expect(response).toMatchObject({ status: 200, requestId: 'req_1' });
    expect(response.headers['x-ratelimit-remaining']).toBe('41');
    const plain = await lead.listLeads({ page: 1, limit: 5 });
    expect(plain.meta.total).toBe(0);
    server.route('POST', SEARCH, json(422, { detail: 'location is required' }));
    const error = await rejection(lead.search({ query: 'a', location: '' }).withResponse());
    expect(error.message).toBe('server refused the request (422): location is required');
  });

  it('logger: told every request, answer and wait, and never the key, even where the server echoes it', async () => {
    const echo = { 'x-echo': `Bearer ${KEY}` };
    server.route('POST', SEARCH, json(503, { detail: `key ${KEY} is busy` }, echo), found);
    const lines: { message: string; details: Record<string, unknown> }[] = [];
    const lead = client({ logger: { debug: (message, details) => lines.push({ message, details }) } });
    await lead.search({ query: KEY, location: 'Austin' });
    expect(lines.map((line) => line.message)).toEqual([
      `POST ${server.baseUrl}/api/v1/search`,
      `POST ${server.baseUrl}/api/v1/search answered 503 in ${lines[1]?.details.ms} ms`,
      'wait 500 ms after HTTP 503',
      `POST ${server.baseUrl}/api/v1/search`,
      `POST ${server.baseUrl}/api/v1/search answered 200 in ${lines[4]?.details.ms} ms`,
    ]);
    expect(lines[0]?.details).toMatchObject({
      attempt: 1,
      headers: { authorization: 'Bearer …6789' },
      body: '{"query":"…6789","location":"Austin"}',
    });
    expect(lines[1]?.details).toMatchObject({ status: 503, headers: { 'x-echo': 'Bearer …6789' } });
    expect(JSON.stringify(lines)).not.toContain(KEY);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ query: KEY, location: 'Austin' });
  });

  it('onRateLimit decides: true waits past maxWaitMs, false rejects at once', async () => {
    server.route(
      'GET',
      LEADS,
      json(429, { detail: 'daily limit' }, { 'retry-after': '3600', 'x-request-id': 'r9' }),
      onePage,
    );
    const asked: RateLimitInfo[] = [];
    const start = clock.now();
    const patient = client({ maxWaitMs: 1000, onRateLimit: async (info) => asked.push(info) > 0 });
    await patient.listLeads({ page: 2 });
    expect(asked).toEqual([
      {
        method: 'GET',
        url: `${server.baseUrl}/api/v1/leads?page=2`,
        waitMs: 3_600_000,
        resetAt: new Date(start + 3_600_000),
        waits: 0,
        serverMessage: 'daily limit',
        requestId: 'r9',
      },
    ]);
    expect(clock.sleeps).toEqual([3_600_000]);
    expect(server.requests).toHaveLength(2);

    server.route('GET', LEADS, json(429, {}, { 'retry-after': '1' }));
    const error = await rejection(client({ onRateLimit: () => false }).listLeads({}));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toMatch(
      /^rate limit reached: onRateLimit chose not to wait; the server allows more requests at /,
    );
    expect(error.exitCode).toBe(5);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([3_600_000]);
  });
});
