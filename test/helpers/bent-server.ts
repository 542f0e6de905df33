// A list server that bends the spec the way real services do. It serves GET /api/v1/leads from a
// fixed list, newest first; each test chooses the misbehaviour (`bend`): pages ignored or repeated, a
// short page, a silent clamp, odd totals, shared ids, or a body it writes by hand (numbers beyond
// 2^53). It records the page and limit of every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export type Lead = Record<string, unknown>;

export interface PageRequest {
  page: number;
  limit: number;
}

/** What one request is answered with: a page and its meta, or a body written by hand. */
export type Bend = (
  request: PageRequest,
  list: Lead[],
) => { items: Lead[]; meta: Record<string, unknown> } | string;

/** The spec's paging, honestly: `limit` items from `(page - 1) * limit`, and the full meta. */
export const honest: Bend = ({ page, limit }, list) => ({
  items: list.slice((page - 1) * limit, page * limit),
  meta: { page, limit, total: list.length, totalPages: Math.ceil(list.length / limit) },
});

export interface BentServer {
  baseUrl: string;
  requests: PageRequest[];
  close(): Promise<void>;
}

export async function startBentServer(list: Lead[], bend: Bend = honest): Promise<BentServer> {
  const requests: PageRequest[] = [];
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const request = {
      page: Number(url.searchParams.get('page') ?? 1),
      limit: Number(url.searchParams.get('limit') ?? 25),
    };
    requests.push(request);
    const answer = bend(request, list);
    const body =
      typeof answer === 'string' ? answer : JSON.stringify({ leads: answer.items, meta: answer.meta });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A bent server for the current test, closed when the test ends. */
export async function bentServerForTest(list: Lead[], bend: Bend = honest): Promise<BentServer> {
  const server = await startBentServer(list, bend);
  onTestFinished(() => server.close());
  return server;
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
