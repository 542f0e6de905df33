// `leadctl leads --all`: every lead exactly once, in order, through failures, resets, inserts during
// the run, rate limits and Ctrl-C.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';

let home: string;
const open: SandboxHandle[] = [];
beforeAll(async () => {
  home = await tempConfigHome();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sandboxWith(options: SandboxOptions) {
  const sandbox = await startSandbox(options);
  open.push(sandbox);
  return sandbox;
}

async function exportAll(sandbox: SandboxHandle, extra: string[] = []) {
  const r = await runCli(
    [
      'leads',
      '--all',
      '--format',
      'ndjson',
      '--base-url',
      sandbox.url,
      '--api-key',
      sandbox.apiKey,
      ...extra,
    ],
    {
      env: { XDG_CONFIG_HOME: home },
    },
  );
  const ids = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);
  return { ...r, ids };
}

/** The ids a quiet server holds, newest first, read in one export with nothing going on. */
async function idsOf(options: SandboxOptions): Promise<string[]> {
  const quiet = await sandboxWith(options);
  const { exitCode, ids } = await exportAll(quiet);
  expect(exitCode).toBe(0);
  return ids;
}

describe('leadctl leads --all', () => {
  it('streams every lead once, newest first, 100 a page', async () => {
    const sandbox = await sandboxWith({ leads: 1_234 });
    const { exitCode, ids } = await exportAll(sandbox);
    expect(exitCode).toBe(0);
    expect(ids).toHaveLength(1_234);
    expect(new Set(ids).size).toBe(1_234);
    const pages = sandbox.requests.filter((q) => q.path === '/api/v1/leads' && q.query.limit === '100');
    expect(new Set(pages.map((q) => q.query.page))).toEqual(
      new Set(Array.from({ length: 13 }, (_, i) => String(i + 1))),
    );
    const json = await runCli(['leads', '--all', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect((JSON.parse(json.stdout) as { id: string }[]).map((lead) => lead.id)).toEqual(ids);
  });

  it('spends only its pages on a list that holds still, at the default concurrency', async () => {
    const sandbox = await sandboxWith({ leads: 2_000 });
    const { exitCode, ids } = await exportAll(sandbox);
    expect(exitCode).toBe(0);
    expect(ids).toHaveLength(2_000);
    expect(sandbox.requests.filter((q) => q.path === '/api/v1/leads')).toHaveLength(20); // the leads' times vouch for the pages: no head read
  });

  it('writes each lead exactly once from a server that fails a quarter of requests and resets a tenth', async () => {
    const expected = await idsOf({ leads: 3_000, seed: 11 });
    const flaky = await sandboxWith({ leads: 3_000, seed: 11, failRate: 0.25, resetRate: 0.1 });
    const { exitCode, ids, stderr } = await exportAll(flaky, ['--retries', '10']);
    expect(stderr).not.toMatch(/^leadctl: (?!warning)/m);
    expect(exitCode).toBe(0);
    expect(ids).toEqual(expected);
    expect(flaky.requests.some((q) => q.status === 500)).toBe(true);
  });

  it.each([1, 4, 8])(
    'loses and repeats nothing while leads are saved during the run (concurrency %i)',
    async (concurrency) => {
      const before = await idsOf({ leads: 2_000, seed: 5 });
      const busy = await sandboxWith({ leads: 2_000, seed: 5 });
      busy.onRequest((q) => {
        if (q.path === '/api/v1/leads' && q.query.limit === '100') busy.addLeads(7);
      });
      const { exitCode, ids } = await exportAll(busy, ['--concurrency', String(concurrency)]);
      expect(exitCode).toBe(0);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => before.includes(id))).toEqual(before);
    },
    60_000,
  );

  it('--max-items stops after n items and asks only for the pages it needs', async () => {
    const sandbox = await sandboxWith({ leads: 500 });
    const { exitCode, ids } = await exportAll(sandbox, [
      '--max-items',
      '150',
      '--limit',
      '50',
      '--concurrency',
      '1',
    ]);
    expect(exitCode).toBe(0);
    expect(ids).toHaveLength(150);
    expect(sandbox.requests.filter((q) => q.path === '/api/v1/leads')).toHaveLength(3);
  });

  it('--since stops at the first older lead', async () => {
    const sandbox = await sandboxWith({ leads: 2_000 });
    const all = await exportAll(sandbox, ['--concurrency', '1']);
    const requestsForAll = sandbox.requests.length;
    const recent = await exportAll(sandbox, ['--since', '24h', '--concurrency', '1']);
    expect(recent.exitCode).toBe(0);
    expect(recent.ids.length).toBeGreaterThan(0);
    expect(recent.ids.length).toBeLessThan(all.ids.length);
    expect(recent.ids).toEqual(all.ids.slice(0, recent.ids.length));
    expect(sandbox.requests.length - requestsForAll).toBeLessThan(requestsForAll);
  });

  it('waits out a short rate limit, says so, and finishes', async () => {
    let served = 0;
    const server = createServer((req, res) => {
      req.resume();
      served += 1;
      if (served === 2) {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: 'slow down', retryAfter: String(Math.floor(Date.now() / 1000) + 2) },
          }),
        );
        return;
      }
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'));
      const leads =
        page <= 3 ? Array.from({ length: 100 }, (_, i) => ({ id: `p${page}-${i}`, name: 'x' })) : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ leads, meta: { page, limit: 100, total: 300, totalPages: 3 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await runCli(
        ['leads', '--all', '--concurrency', '1', '--format', 'ndjson', '--base-url', url, '--api-key', 'k'],
        {
          env: { XDG_CONFIG_HOME: home },
        },
      );
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trim().split('\n')).toHaveLength(300);
      expect(r.stderr).toMatch(/Rate limited by the server \(HTTP 429\); retrying in [1-3](\.\d)? s/);
    } finally {
      server.close();
    }
  });

  it('Ctrl-C writes the complete rows received, leaves the partial file it names, exits 130', async () => {
    const slow = await sandboxWith({ leads: 1_000, latencyMs: 300 });
    const file = join(home, 'interrupted.csv');
    let pages = 0;
    const child = spawnCli(
      [
        'leads',
        '--all',
        '--csv',
        '--concurrency',
        '1',
        '-o',
        file,
        '--base-url',
        slow.url,
        '--api-key',
        slow.apiKey,
      ],
      {
        env: { XDG_CONFIG_HOME: home },
      },
    );
    await new Promise<void>((resolve) =>
      slow.onRequest((q) => {
        if (q.path !== '/api/v1/leads') return;
        pages += 1;
        if (pages === 3) resolve();
      }),
    );
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(existsSync(file)).toBe(false);
    const partial = /^the output received so far is in (.+)$/m.exec(String(r.stderr))?.[1] as string;
    expect(partial).toMatch(/interrupted\.csv\.[0-9a-f]{8}\.partial$/);
    const rows = readFileSync(partial, 'utf8').trimEnd().split('\r\n');
    expect(rows[0]).toBe('id,name,address,phone,website,rating,review_count,category,saved_at');
    expect(rows.length - 1).toBeGreaterThanOrEqual(100);
    expect((rows.length - 1) % 100).toBe(0);
  });
});
