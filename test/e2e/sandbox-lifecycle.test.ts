// The sandbox as a test fixture: chaos (failRate, resetRate, latency), recording and hooks, leads
// saved mid-run, determinism by seed, and close() that leaves no socket behind.
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

const open: SandboxHandle[] = [];
async function start(options: SandboxOptions = {}) {
  const sandbox = await startSandbox(options);
  open.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

async function get(sandbox: SandboxHandle, path: string) {
  const response = await request(`${sandbox.url}${path}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  const json: any = await response.body.json();
  return { status: response.statusCode, json };
}

async function post(sandbox: SandboxHandle, body: unknown) {
  const response = await request(`${sandbox.url}/api/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  const json: any = await response.body.json();
  return { status: response.statusCode, json };
}

describe('chaos', () => {
  it('failRate 1 answers every request with a JSON 500 that has a message', async () => {
    const sandbox = await start({ failRate: 1 });
    const { status, json } = await get(sandbox, '/api/v1/leads');
    expect(status).toBe(500);
    expect(json.error.message).toMatch(/retry/);
  });

  it('failRate 0.5 mixes 500s and 200s', async () => {
    const sandbox = await start({ failRate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 60; i++) statuses.push((await get(sandbox, '/api/v1/leads?limit=1')).status);
    const failures = statuses.filter((status) => status === 500).length;
    expect(failures).toBeGreaterThan(10);
    expect(failures).toBeLessThan(50);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60 - failures);
  });

  it('resetRate 1 destroys the socket without an answer, recorded as status 0', async () => {
    const sandbox = await start({ resetRate: 1 });
    await expect(get(sandbox, '/api/v1/leads')).rejects.toThrow();
    expect(sandbox.requests[0]).toMatchObject({ path: '/api/v1/leads', status: 0 });
  });

  it('latencyMs delays every answer: a slow sandbox answers after a quick one asked later', async () => {
    const [slow, quick] = [await start({ latencyMs: 60_000 }), await start()];
    let slowAnswered = false;
    const pending = get(slow, '/api/v1/leads?limit=1').then(
      () => (slowAnswered = true),
      () => {}, // close() ends it at the end of the test
    );
    await expect.poll(() => slow.requests.length).toBe(1);
    expect((await get(quick, '/api/v1/leads?limit=1')).status).toBe(200);
    expect(slowAnswered).toBe(false);
    await slow.close();
    await pending;
  });
});

describe('recording and hooks', () => {
  it('records every request in order, with query, status, authorization and body', async () => {
    const sandbox = await start();
    await get(sandbox, '/api/v1/leads?page=2&limit=5');
    await post(sandbox, { query: 'bakery', location: 'Miami' });
    await get(sandbox, '/nope');
    expect(sandbox.requests).toMatchObject([
      {
        method: 'GET',
        path: '/api/v1/leads',
        query: { page: '2', limit: '5' },
        status: 200,
        authorization: `Bearer ${sandbox.apiKey}`,
      },
      { method: 'POST', path: '/api/v1/search', status: 200, body: { query: 'bakery', location: 'Miami' } },
      { method: 'GET', path: '/nope', status: 404 },
    ]);
    expect(sandbox.requests[1]?.headers['content-type']).toBe('application/json');
  });

  it('calls the hook before answering and waits for a promise it returns', async () => {
    const sandbox = await start();
    let release = () => {};
    const seen: number[] = [];
    sandbox.onRequest((recorded) => {
      seen.push(recorded.status);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    let answered = false;
    const pending = get(sandbox, '/api/v1/leads').then((response) => {
      answered = true;
      return response;
    });
    await expect.poll(() => seen).toEqual([200]);
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    sandbox.onRequest(undefined);
    expect((await get(sandbox, '/api/v1/leads')).status).toBe(200);
    expect(seen).toEqual([200]);
  });
});

describe('options', () => {
  it('recordRequests: false keeps no request log', async () => {
    const sandbox = await start({ recordRequests: false });
    expect((await get(sandbox, '/api/v1/leads')).status).toBe(200);
    expect(sandbox.requests).toEqual([]);
  });

  it('hostileData puts hostile names in leads and search results; default data has none', async () => {
    const hostile = await start({ hostileData: true });
    const clean = await start();
    const names = async (sandbox: SandboxHandle) => {
      const leads = (await get(sandbox, '/api/v1/leads')).json.leads;
      const results = (await post(sandbox, { query: 'plumber', location: 'Austin' })).json.results;
      return [...leads, ...results].map((item: { name: string }) => item.name).join('\n');
    };
    const hostileNames = await names(hostile);
    for (const marker of ['=HYPERLINK(', '\u001b[31m', '\u009b', '東京'])
      expect(hostileNames).toContain(marker);
    expect(await names(clean)).not.toMatch(/[=@\u001b\u009b]/);
  });
});

describe('leads saved or removed mid-run', () => {
  it('addLeads puts new leads first and shifts later pages; removeLeads takes them away', async () => {
    const sandbox = await start({ leads: 60 });
    const before = (await get(sandbox, '/api/v1/leads?limit=25')).json;
    sandbox.addLeads(5);
    const after = (await get(sandbox, '/api/v1/leads?limit=25')).json;
    expect(after.meta.total).toBe(65);
    expect(after.leads.slice(5)).toEqual(before.leads.slice(0, 20));
    expect(Date.parse(after.leads[4].saved_at)).toBeGreaterThan(Date.parse(before.leads[0].saved_at));
    const page2 = (await get(sandbox, '/api/v1/leads?limit=25&page=2')).json;
    expect(page2.leads.slice(0, 5)).toEqual(before.leads.slice(20, 25));

    sandbox.removeLeads(5);
    expect((await get(sandbox, '/api/v1/leads?limit=25')).json).toEqual(before);
    sandbox.removeLeads(1000);
    expect((await get(sandbox, '/api/v1/leads')).json).toEqual({
      leads: [],
      meta: { page: 1, limit: 25, total: 0, totalPages: 0 },
    });
  });

  it('serves a billion leads without generating them up front (made up front, they would not fit in memory)', async () => {
    const sandbox = await start({ leads: 1_000_000_000 });
    const last = (await get(sandbox, '/api/v1/leads?limit=100&page=10000000')).json;
    expect(last.meta).toEqual({ page: 10_000_000, limit: 100, total: 1_000_000_000, totalPages: 10_000_000 });
    expect(last.leads).toHaveLength(100);
  });
});

describe('determinism', () => {
  it('serves identical data from two servers with the same seed and clock, different with another seed', async () => {
    const now = () => Date.parse('2024-03-03T10:00:00Z');
    const [a, b, c] = await Promise.all([
      start({ seed: 42, now }),
      start({ seed: 42, now }),
      start({ seed: 43, now }),
    ]);
    const body = { query: 'coffee', location: 'Seattle' };
    for (const path of ['/api/v1/leads?limit=100', '/api/v1/history']) {
      expect((await get(a, path)).json).toEqual((await get(b, path)).json);
      expect((await get(a, path)).json).not.toEqual((await get(c, path)).json);
    }
    expect((await post(a, body)).json).toEqual((await post(b, body)).json);
    expect((await post(a, body)).json).not.toEqual((await post(c, body)).json);
  });
});

function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('close()', () => {
  it('destroys idle keep-alive sockets and refuses new connections', async () => {
    const sandbox = await start();
    const socket = await openSocket(sandbox.url);
    const answered = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
    socket.write('GET /api/v1/leads?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect(await answered).toMatch(/^HTTP\/1.1 401/);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await sandbox.close();
    await closed;
    await expect(openSocket(sandbox.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('ends requests still in flight instead of waiting for them', async () => {
    const sandbox = await start({ latencyMs: 60_000 });
    const pending = get(sandbox, '/api/v1/leads');
    await expect.poll(() => sandbox.requests.length).toBe(1);
    // Waiting for the answer would take a minute, far past the test's time-out.
    await sandbox.close();
    await expect(pending).rejects.toThrow();
  });

  it('answers a malformed HTTP request with 400 and closes that connection', async () => {
    const sandbox = await start();
    const socket = await openSocket(sandbox.url);
    let received = '';
    socket.on('data', (chunk) => {
      received += String(chunk);
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1.1 400/);
    expect(received).toContain('"message"');
  });
});
