// A deliberately odd Lead API for client tests: each test scripts its own answers (string numbers,
// nulls, FastAPI error lists, plain-text 500s, HTML 200s, resets, redirects...) so that the client is
// proven against shapes our sandbox never produces. It records every request it receives.
// Also here: a fake Clock, so that retry waits are recorded instead of slept.

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export interface OddServer {
  /** `http://127.0.0.1:<port>` (no /api/v1: the client appends it). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far: keep-alive shows as fewer connections than requests. */
  connections(): number;
  /** Scripts `METHOD /path` (query ignored): answers are used in turn, the last one repeats. */
  route(method: string, path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function startOddServer(): Promise<OddServer> {
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
