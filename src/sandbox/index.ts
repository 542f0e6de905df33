// A local Lead Data API v1 server: latency and chaos (failRate, resetRate), a record of every request, the
// pipeline (routes.ts), and never an error that escapes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { generateLead } from './data.js';
import { SANDBOX_KEYS } from './keys.js';
import { type ApiResponse, errorResponse, readBody, splitTarget, writeJson } from './responses.js';
import { routeRequest } from './routes.js';
import { createState } from './state.js';
import type { Lead, RecordedRequest, RequestHook, SandboxOptions } from './types.js';

export { SANDBOX_KEYS } from './keys.js';
export type { Lead, RecordedRequest, SandboxOptions } from './types.js';

export type SandboxHandle = Awaited<ReturnType<typeof startSandbox>>;

function recordedBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

const BAD_REQUEST_BODY = JSON.stringify({
  error: { code: 'bad_request', message: 'Malformed HTTP request.' },
});
const BAD_REQUEST = `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(BAD_REQUEST_BODY)}\r\n\r\n${BAD_REQUEST_BODY}`;

export async function startSandbox(options: SandboxOptions = {}) {
  const state = createState(options);
  const { settings } = state;
  // A lead's id follows from its serial alone (data.ts draws it first).
  const idOf = (serial: number) => generateLead(settings.seed, serial, 0).id;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let hook: RequestHook | undefined;
  let closing: Promise<void> | undefined;

  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    query: URLSearchParams,
  ): Promise<void> {
    // The answer leaves `latencyMs` after the request arrived, the sandbox's own work done meanwhile,
    // as a remote server's work is part of the latency its clients see.
    const due = performance.now() + settings.latencyMs;
    const untilDue = async () => {
      const remaining = due - performance.now();
      if (remaining > 0) await delay(remaining);
    };
    const reading = await readBody(req);
    if (reading.kind === 'aborted' || closing) return;
    if (reading.kind === 'ok') record.body = recordedBody(reading.text);

    if (settings.resetRate > 0 && state.chaos.next() < settings.resetRate) {
      await untilDue();
      await hook?.(record);
      req.socket.destroy();
      return;
    }
    let response: ApiResponse;
    if (settings.failRate > 0 && state.chaos.next() < settings.failRate) {
      response = errorResponse(
        500,
        'internal_error',
        'Simulated server failure (sandbox failRate); retry shortly.',
      );
    } else if (reading.kind === 'too-large') {
      response = errorResponse(413, 'payload_too_large', 'The request body is larger than 1 MB.');
    } else {
      response = routeRequest(state, {
        method: record.method,
        path: record.path,
        query,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        bodyText: reading.text,
      });
    }
    const payload = JSON.stringify(response.body);
    await untilDue();
    if (closing) return;
    record.status = response.status;
    await hook?.(record);
    writeJson(res, response, reading.kind === 'too-large' && reading.closeAfter, payload);
  }

  const server = createServer((req, res) => {
    res.on('error', () => {});
    const { path, query } = splitTarget(req.url ?? '/');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(query),
      status: 0,
      headers: { ...req.headers },
      ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
    };
    if (settings.recordRequests) requests.push(record);
    answer(req, res, record, query).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      record.status = 500;
      writeJson(res, errorResponse(500, 'internal_error', `Sandbox failure: ${reason}`));
    });
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end(BAD_REQUEST);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    /** Base URL without trailing slash, e.g. http://127.0.0.1:43123. */
    url: `http://${urlHost(settings.host)}:${port}`,
    apiKey: SANDBOX_KEYS[settings.plan],
    keys: { ...SANDBOX_KEYS },
    requests,
    /** Saves n new leads now; they are the newest. */
    addLeads: (n: number) => state.leads.add(n, settings.now()),
    /** Removes the n newest leads. */
    removeLeads: (n: number) => state.leads.remove(n),
    /** Deletes the leads now at these positions (0 = the newest) as a user would; returns their ids. */
    deleteLeads: (positions: readonly number[]) =>
      state.leads.deleteAt(positions).map((ref) => idOf(ref.serial)),
    /** Lists every lead deleteLeads removed again, in its old place. */
    restoreLeads: () => state.leads.restore(),
    /** Changes fields of the lead now at `position` (a new rating, a review count); returns its id. */
    changeLead: (position: number, fields: Partial<Lead>) => {
      const [ref] = state.leads.slice(position, 1);
      if (!ref) throw new RangeError(`no lead at position ${position}`);
      state.leads.changes.set(ref.serial, { ...state.leads.changes.get(ref.serial), ...fields });
      return idOf(ref.serial);
    },
    /** Called with each handled request before its answer is written; awaited if it returns a promise. */
    onRequest: (fn: RequestHook | undefined) => {
      hook = fn;
    },
    /** Closes the server and destroys every open socket. */
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
