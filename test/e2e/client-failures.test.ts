// LeadClient's errors, retries and waits over real HTTP; waits go through a fake clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  ForbiddenError,
  type LeadError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  UsageError,
  ValidationError,
} from '../../src/api/errors.js';
import { LeadClient, type LeadClientOptions, type WaitEvent } from '../../src/index.js';
import {
  createFakeClock,
  type FakeClock,
  type FakeServer,
  json,
  reset,
  silence,
  stall,
  startFakeServer,
  text,
} from '../helpers/fake-server.js';

const KEY = 'lk_live_secret_0123456789';
const LEADS = '/api/v1/leads';
const emptyPage = json(200, { leads: [], meta: { total: 0 } });
let server: FakeServer;
let client: LeadClient | undefined;
let clock: FakeClock;

function makeClient(options: Partial<LeadClientOptions> = {}): LeadClient {
  client = new LeadClient({ baseUrl: server.baseUrl, apiKey: KEY, clock, random: () => 1, ...options });
  return client;
}

/** The error a call rejects with; every error is checked to not carry the key. */
async function failure(promise: Promise<unknown>): Promise<LeadError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as LeadError,
  );
  expect(`${error.message} ${error.hint ?? ''}`).not.toContain(KEY);
  return error;
}

beforeEach(async () => {
  server = await startFakeServer();
  clock = createFakeClock();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

describe('4xx: never retried', () => {
  it('422 with a FastAPI detail list -> exit 2 with the fields named, one request', async () => {
    const detail = [{ loc: ['body', 'location'], msg: 'field required', type: 'missing' }];
    server.route('POST', '/api/v1/search', json(422, { detail }));
    const error = await failure(makeClient().search({ query: 'plumber', location: '' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('server refused the request (422): location: field required');
    expect(error.exitCode).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it('401 -> exit 3, one request', async () => {
    server.route('GET', LEADS, text(401, 'Unauthorized'));
    const error = await failure(makeClient().listLeads({}));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    expect(server.requests).toHaveLength(1);
  });

  it('403 -> exit 4 with the server message, one request', async () => {
    server.route('GET', LEADS, json(403, { error: { message: 'Your plan does not include API access' } }));
    const error = await failure(makeClient().listLeads({}));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toBe('access denied (403): Your plan does not include API access');
    expect(server.requests).toHaveLength(1);
  });

  it('404 (a base URL that is not the API) -> exit 2 with a hint naming the baseUrl option', async () => {
    const error = await failure(makeClient({ baseUrl: `${server.baseUrl}/wrong` }).listLeads({}));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('not found (404): /wrong/api/v1/leads: Not Found');
    expect(error.hint).toMatch(/`baseUrl`/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('429: waits from the body, the header, or backoff', () => {
  it('waits until a retryAfter given in ms inside `error`, then succeeds', async () => {
    const retryAfter = String(clock.now() + 5000);
    server.route('GET', LEADS, json(429, { error: { message: 'slow down', retryAfter } }), emptyPage);
    const waits: WaitEvent[] = [];
    await makeClient({ hooks: { onWait: (e) => waits.push(e) } }).listLeads({});
    expect(clock.sleeps).toEqual([5000]);
    expect(waits.map(({ reason, waitMs, attempt }) => ({ reason, waitMs, attempt }))).toEqual([
      { reason: 'rate-limited', waitMs: 5000, attempt: 1 },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops at once with exit 5 when the reset is beyond max-wait', async () => {
    const resetSeconds = Math.floor(clock.now() / 1000) + 7 * 3600;
    server.route(
      'GET',
      LEADS,
      json(429, { retryAfter: resetSeconds, message: 'Daily request limit exceeded' }),
    );
    const error = await failure(makeClient({ maxWaitMs: 60_000 }).listLeads({}));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.exitCode).toBe(5);
    expect((error as RateLimitedError).resetAt?.getTime()).toBe(resetSeconds * 1000);
    expect(error.message).toMatch(/^rate limit reached \(Daily request limit exceeded\): .* in 7h 0m$/);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('quotes an unreadable retryAfter without waiting', async () => {
    server.route('GET', LEADS, json(429, { detail: { retryAfter: 'tomorrow' } }));
    const error = await failure(makeClient().listLeads({}));
    expect(error.message).toBe('rate limit reached; the server says retry after "tomorrow"');
    expect(server.requests).toHaveLength(1);
  });

  it('uses a Retry-After header when the body has no time', async () => {
    server.route(
      'GET',
      LEADS,
      text(429, 'Too Many Requests', 'text/plain', { 'Retry-After': '3' }),
      emptyPage,
    );
    await makeClient().listLeads({});
    expect(clock.sleeps).toEqual([3000]);
  });
});

describe('5xx and network failures: retried with backoff', () => {
  it('retries plain-text 500s, then succeeds', async () => {
    server.route('GET', LEADS, text(500, 'Internal Server Error'), text(502, 'Bad Gateway'), emptyPage);
    await makeClient().listLeads({});
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  it('gives up after --retries with exit 6, quoting the text body', async () => {
    server.route('GET', LEADS, text(500, 'Internal Server Error\nTraceback...'));
    const error = await failure(makeClient({ retries: 2 }).listLeads({}));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('server error (500) after 3 attempts: Internal Server Error');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a POST /search that hit a 503, honouring Retry-After', async () => {
    server.route(
      'POST',
      '/api/v1/search',
      text(503, '', 'text/plain', { 'Retry-After': '2' }),
      json(200, { results: [], count: 0, query: 'q', location: 'l' }),
    );
    await makeClient().search({ query: 'q', location: 'l' });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('retries a connection reset, then succeeds', async () => {
    server.route('GET', LEADS, reset, emptyPage);
    await makeClient().listLeads({});
    expect(server.requests).toHaveLength(2);
  });

  it('reports resets that persist as a network error of kind reset', async () => {
    server.route('GET', LEADS, reset);
    const error = await failure(makeClient({ retries: 1 }).listLeads({}));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).kind).toBe('reset');
    expect(server.requests).toHaveLength(2);
  });

  it('says it cannot reach a port nobody listens on', async () => {
    const gone = await startFakeServer();
    await gone.close();
    const error = await failure(makeClient({ baseUrl: gone.baseUrl, retries: 1 }).listLeads({}));
    const port = new URL(gone.baseUrl).port;
    expect(error.message).toBe(`cannot reach 127.0.0.1:${port} (connection refused) after 2 attempts`);
    expect(error.exitCode).toBe(6);
  });

  it('times out a server that never answers, and a body that stalls', async () => {
    server.route('GET', LEADS, silence);
    const error = await failure(makeClient({ timeoutMs: 200, retries: 0 }).listLeads({}));
    expect((error as NetworkError).kind).toBe('timeout');
    expect(error.message).toMatch(/^no answer from 127\.0\.0\.1:\d+ within 0\.2 s \(timeout\)$/);

    server.route('GET', '/api/v1/history', stall);
    const stalled = await failure(client!.listHistory({}));
    expect((stalled as NetworkError).kind).toBe('timeout');
  });
});

describe('answers that are not a valid response', () => {
  it('an HTML 200 -> exit 7 quoting the body, not retried', async () => {
    server.route('GET', LEADS, text(200, '<!DOCTYPE html><html><title>Login</title></html>', 'text/html'));
    const error = await failure(makeClient().listLeads({}));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(7);
    expect(error.message).toBe(
      'server answered 200 with something that is not JSON: "<!DOCTYPE html><html><title>Login</title></html>"',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a redirect is not followed: the other origin receives nothing', async () => {
    const elsewhere = await startFakeServer();
    try {
      server.route(
        'GET',
        LEADS,
        text(302, '', 'text/plain', { Location: `${elsewhere.baseUrl}/api/v1/leads` }),
      );
      const error = await failure(makeClient().listLeads({}));
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toBe(
        `the server redirected (302) to ${elsewhere.baseUrl}; leadctl does not follow redirects with the API key attached`,
      );
      expect(elsewhere.requests).toHaveLength(0);
      expect(server.requests).toHaveLength(1);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('safety and cancellation', () => {
  it('refuses plain http to a non-loopback host before any request', () => {
    expect(() => new LeadClient({ baseUrl: 'http://api.example.com', apiKey: KEY })).toThrow(UsageError);
    expect(() => new LeadClient({ baseUrl: 'http://api.example.com', apiKey: KEY })).toThrow(/plain http/);
  });

  it('refuses an empty key with exit 3', () => {
    expect(() => new LeadClient({ baseUrl: server.baseUrl, apiKey: '  ' })).toThrow('no API key configured');
  });

  it("rejects with an AbortedError caused by the caller's reason, without retrying", async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted by user');
    // The caller aborts once the server holds the request (never answered), not after a guessed delay.
    server.route('GET', LEADS, () => controller.abort(reason));
    const pending = makeClient().listLeads({}, { signal: controller.signal });
    await expect(pending).rejects.toMatchObject({
      name: 'AbortedError',
      exitCode: 130,
      cause: reason,
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});
