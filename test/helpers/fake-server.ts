// The one hand-made Lead API for tests, where the sandbox (src/sandbox, the product's own) cannot show
// what a test needs. Each test scripts its routes: odd answers (string numbers, nulls, FastAPI error
// lists, plain-text 500s, HTML 200s, resets, redirects...), or a paged list, honest or bent the way
// real services bend the spec (pages ignored or repeated, a short page, a silent clamp, odd totals,
// shared ids, a body written by hand with numbers beyond 2^53). It records every request it receives.
// Also here: a fake Clock, so that retry waits are recorded instead of slept.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { Clock } from '../../src/api/timestamp.js';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/leads?page=2`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request. `destroy()` drops the connection without an answer. */
export type Answer = (res: ServerResponse, request: RecordedRequest, destroy: () => void) => void;

export interface FakeServer {
  /** `http://127.0.0.1:<port>` (no /api/v1: the client appends it). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far: keep-alive shows as fewer connections than requests. */
  connections(): number;
  /** Scripts `METHOD /path` (query ignored): answers are used in turn, the last one repeats. */
  route(method: string, path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const routes = new Map<string, { answers: Answer[]; used: number }>();
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const route = routes.get(`${recorded.method} ${recorded.url.split('?')[0]}`);
      if (!route) {
        json(404, { detail: 'Not Found' })(res, recorded, () => req.socket.destroy());
        return;
      }
      const answer = route.answers[Math.min(route.used, route.answers.length - 1)];
      route.used++;
      answer?.(res, recorded, () => req.socket.destroy());
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    route(method, path, ...answers) {
      routes.set(`${method} ${path}`, { answers, used: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fake server for the current test, closed when the test ends. */
export async function fakeServerForTest(): Promise<FakeServer> {
  const server = await startFakeServer();
  onTestFinished(() => server.close());
  return server;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export function text(
  status: number,
  body: string,
  contentType = 'text/plain',
  headers: Record<string, string> = {},
): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };
}

/** Never answers: for header timeouts and aborts. */
export const silence: Answer = () => {};

/** Closes the connection without answering: the client sees a reset. */
export const reset: Answer = (_res, _request, destroy) => destroy();

/** Sends headers and half a body, then hangs: for body timeouts. */
export const stall: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"leads": [');
};

// Paged lists: GET /api/v1/leads and /api/v1/history.

/** A list item: an object, or its JSON text as a server writes it (4.50, ids beyond 2^53 kept). */
export type Lead = Record<string, unknown>;
type Item = Lead | string;

export interface PageRequest {
  page: number;
  limit: number;
}

/** What one request is answered with: a page and its meta, or a body written by hand. */
export type Bend = (
  request: PageRequest,
  list: Lead[],
) => { items: Item[]; meta: Record<string, unknown> } | string;

/** The spec's paging, honestly: `limit` items from `(page - 1) * limit`, and the full meta. */
export const honest: Bend = ({ page, limit }, list) => ({
  items: list.slice((page - 1) * limit, page * limit),
  meta: { page, limit, total: list.length, totalPages: Math.ceil(list.length / limit) },
});

/** An answer with a page of `list()` (read at each request) under `key`, as `bend` cuts it. */
export function paged(
  key: string,
  list: () => Item[],
  bend: Bend = honest,
  seen: (request: PageRequest) => void = () => {},
): Answer {
  return (res, { url }) => {
    const query = new URL(url, 'http://localhost').searchParams;
    const request = { page: Number(query.get('page') ?? 1), limit: Number(query.get('limit') ?? 25) };
    seen(request);
    const answer = bend(request, list() as Lead[]);
    const items = typeof answer === 'string' ? [] : answer.items;
    const body =
      typeof answer === 'string'
        ? answer
        : `{"${key}":[${items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(',')}],"meta":${JSON.stringify(answer.meta)}}`;
    json(200, body)(res, { method: 'GET', url, headers: {}, body: '' }, () => {});
  };
}

export interface BentServer {
  baseUrl: string;
  /** The page and limit of every list request. */
  requests: PageRequest[];
}

/** GET /api/v1/leads from `list`, newest first, as `bend` cuts it; closed when the test ends. */
export async function bentServerForTest(list: Lead[], bend: Bend = honest): Promise<BentServer> {
  const server = await fakeServerForTest();
  const bent: BentServer = { baseUrl: server.baseUrl, requests: [] };
  server.route(
    'GET',
    '/api/v1/leads',
    paged(
      'leads',
      () => list,
      bend,
      (request) => bent.requests.push(request),
    ),
  );
  return bent;
}

export interface AccountServer {
  baseUrl: string;
  /** Items as JSON text, newest first: change them between runs. */
  leads: string[];
  history: string[];
  requests: { path: string; page: number; limit: number }[];
}

/** An account for `leadctl sync`: its saved leads and search history, paged honestly. */
export async function accountServerForTest(leads: string[], history: string[]): Promise<AccountServer> {
  const server = await fakeServerForTest();
  const account: AccountServer = { baseUrl: server.baseUrl, leads, history, requests: [] };
  for (const key of ['leads', 'history'] as const) {
    const path = `/api/v1/${key}`;
    server.route(
      'GET',
      path,
      paged(
        key,
        () => account[key],
        honest,
        (request) => account.requests.push({ path, ...request }),
      ),
    );
  }
  return account;
}

const NEWEST_MS = Date.UTC(2026, 10, 20, 12);

/** `count` leads, newest first, one minute apart: `lead-1` is the newest. */
export function leadsList(count: number): Lead[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `lead-${index + 1}`,
    name: `Business ${index + 1}`,
    saved_at: new Date(NEWEST_MS - index * 60_000).toISOString(),
  }));
}

export interface FakeClock extends Clock {
  /** Every wait asked for, in ms, in order. */
  sleeps: number[];
}

/** A clock that never sleeps: each sleep is recorded and moves `now` forward at once. */
export function createFakeClock(startMs = Date.UTC(2026, 10, 22, 16, 48)): FakeClock {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
}
