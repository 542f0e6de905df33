// An account server for `leadctl sync` tests: GET /api/v1/leads and /api/v1/history from lists the
// test holds (newest first), paged honestly, each item written as the JSON text the test gives, so
// that numbers the client must keep exactly (4.50, ids beyond 2^53) reach it as a real server's
// would. It records the path, page and limit of every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface AccountServer {
  baseUrl: string;
  /** Items as JSON text, newest first: change them between runs. */
  leads: string[];
  history: string[];
  requests: { path: string; page: number; limit: number }[];
}

export async function accountServerForTest(leads: string[], history: string[]): Promise<AccountServer> {
  const account: AccountServer = { baseUrl: '', leads, history, requests: [] };
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 25);
    account.requests.push({ path: url.pathname, page, limit });
    const key = url.pathname === '/api/v1/history' ? 'history' : 'leads';
    const list = account[key];
    const items = list.slice((page - 1) * limit, page * limit);
    const meta = { page, limit, total: list.length, totalPages: Math.ceil(list.length / limit) };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"${key}":[${items.join(',')}],"meta":${JSON.stringify(meta)}}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  account.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return account;
}
