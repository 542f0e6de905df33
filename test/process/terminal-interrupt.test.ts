// Ctrl-C typed at a real terminal (a pty), with the spinner showing: leadctl stops with 130, names
// the partial file, and leaves the terminal as it found it (isig, icanon, echo on; cursor shown).
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempConfigHome } from '../helpers/cli.js';
import { type FakeServer, json, type RecordedRequest, startFakeServer } from '../helpers/fake-server.js';
import { runInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const TOTAL = 3000;

/** An honest page of saved leads, answered after `delayMs`: a slow server. */
function slowPage(delayMs: number) {
  return (res: ServerResponse, request: RecordedRequest) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 25);
    const start = (page - 1) * limit;
    const leads = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - start)) }, (_, i) => ({
      id: `lead-${start + i + 1}`,
      name: `Business ${start + i + 1}`,
      saved_at: new Date(Date.UTC(2026, 10, 20) - (start + i) * 60_000).toISOString(),
    }));
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ leads, meta: { page, limit, total: TOTAL, totalPages: Math.ceil(TOTAL / limit) } }),
      );
    }, delayMs);
    res.on('close', () => clearTimeout(timer));
  };
}

function expectTerminalRestored(result: Awaited<ReturnType<typeof runInPty>['exited']>) {
  expect(result.modes).toMatchObject({ isig: true, icanon: true, echo: true });
  // The spinner hid the cursor; it is shown again after the last hide.
  const raw = result.output;
  expect(raw.lastIndexOf('\u001b[?25h')).toBeGreaterThan(raw.lastIndexOf('\u001b[?25l'));
}

test('Ctrl-C during an export with the spinner showing: exit 130, the partial file named, the terminal restored', async () => {
  server.route('GET', '/api/v1/leads', slowPage(400));
  const dir = tempDir('pty');
  const out = join(dir, 'slow.csv');
  const run = runInPty(
    [
      'leads',
      '--all',
      '--csv',
      '-o',
      out,
      '--concurrency',
      '1',
      '--base-url',
      server.baseUrl,
      '--api-key',
      'k',
    ],
    { env: { XDG_CONFIG_HOME: await tempConfigHome() } },
  );
  // The progress line says how far the run has got before the key is typed.
  await run.waitFor(/page \d+/i);
  // While the spinner spins, the terminal still turns Ctrl-C into SIGINT (the bug: -isig -icanon -echo).
  expect(await run.modesNow()).toMatchObject({ isig: true, icanon: true });
  run.type('\x03');
  const result = await run.exited;
  expect(result.exitCode).toBe(130);
  expect(run.screen()).toMatch(/interrupted/);
  const partial = /(\S+slow\.csv\.[0-9a-f]+\.partial)/.exec(run.screen())?.[1];
  expect(partial).toBeDefined();
  expect(existsSync(partial as string)).toBe(true);
  expect(existsSync(out)).toBe(false);
  expect(run.screen()).not.toMatch(/Wrote/);
  expectTerminalRestored(result);
  // No more pages were asked for after the key (at most the one under way).
  expect(server.requests.length).toBeLessThan(TOTAL / 100);
});

test('Ctrl-C during a batch (search --input) with progress showing: exit 130, the terminal restored', async () => {
  const sandbox = await startSandbox({ latencyMs: 400 });
  try {
    const dir = tempDir('pty');
    const input = join(dir, 'searches.txt');
    await writeFile(
      input,
      ['query,location', ...Array.from({ length: 40 }, (_, i) => `plumber ${i},Dallas`)].join('\n'),
    );
    const out = join(dir, 'results.csv');
    const run = runInPty(
      ['search', '--input', input, '-o', out, '--base-url', sandbox.url, '--api-key', sandbox.apiKey],
      { env: { XDG_CONFIG_HOME: await tempConfigHome() } },
    );
    await run.waitFor(/\d+ of 40/);
    run.type('\x03');
    const result = await run.exited;
    expect(result.exitCode).toBe(130);
    expect(run.screen()).toMatch(/interrupted/);
    expectTerminalRestored(result);
    expect(sandbox.requests.filter((r) => r.method === 'POST').length).toBeLessThan(40);
  } finally {
    await sandbox.close();
  }
});

test('Ctrl-C during a 429 wait, with the countdown showing: exit 130 at once, the terminal restored', async () => {
  // 50 s to wait, within --max-wait 60: leadctl shows the countdown and would wait it out.
  server.route(
    'GET',
    '/api/v1/leads',
    json(429, { error: { code: 'rate_limited', message: 'slow down', retryAfter: 50 } }),
  );
  const run = runInPty(
    ['leads', '--csv', '--max-wait', '60', '--base-url', server.baseUrl, '--api-key', 'k'],
    {
      env: { XDG_CONFIG_HOME: await tempConfigHome() },
    },
  );
  await run.waitFor(/\d+ ?s/);
  run.type('\x03');
  const result = await run.exited;
  expect(result.exitCode).toBe(130);
  expect(run.screen()).toMatch(/interrupted/);
  expectTerminalRestored(result);
  expect(server.requests).toHaveLength(1);
});

test('Ctrl-C at the hidden key prompt: exit 130, nothing stored, echo back on', async () => {
  const home = await tempConfigHome();
  const run = runInPty(['config', 'set', 'api-key'], { env: { XDG_CONFIG_HOME: home } });
  await run.waitFor('API key:');
  // Keys typed before the prompt turned echo off would be echoed by the terminal itself.
  await run.waitForModes((modes) => !modes.echo);
  run.type('sk_half');
  run.type('\x03');
  const result = await run.exited;
  expect(result.exitCode).toBe(130);
  // The typed half key was never shown and is not stored.
  expect(run.screen()).not.toContain('sk_half');
  expect(existsSync(join(home, 'leadctl', 'config.json'))).toBe(false);
  expect(result.modes).toMatchObject({ isig: true, icanon: true, echo: true });
});
