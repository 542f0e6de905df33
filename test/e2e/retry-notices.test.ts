// What a run says while it retries: the failure named (HTTP status, reset, timeout) and a readable
// wait; on a terminal, a 429 wait keeps the export's progress (items written of the total) in view.
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { type FakeServer, json, reset, silence, startFakeServer, text } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const LEADS = '/api/v1/leads';
const page = (n: number, totalPages = 1) =>
  json(200, {
    leads: [{ id: `l${n}`, name: `Lead ${n}` }],
    meta: { page: n, limit: 1, total: totalPages, totalPages },
  });
// Any wait: "now", "in 250 ms", "in 1.3 s", "in 12 s"; never "0.0 s".
const WAIT = '(now|in [1-9]\\d* ms|in \\d+(\\.\\d)? s)';
let server: FakeServer;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startFakeServer();
  env = { XDG_CONFIG_HOME: tempDir('retry-notices') };
});
afterEach(() => server.close());

const leads = (...extra: string[]) =>
  runCli(['leads', '--json', '--base-url', server.baseUrl, '--api-key', 'k', ...extra], { env });

describe('retry notices', () => {
  it('name the HTTP status', async () => {
    server.route('GET', LEADS, text(503, 'busy'), page(1));
    const r = await leads();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`^HTTP 503 from the server; retrying ${WAIT} \\(retry 1 of 3\\)$`, 'm'),
    );
  });

  it('name a reset connection', async () => {
    server.route('GET', LEADS, reset, page(1));
    const r = await leads();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^Connection reset; retrying ${WAIT} \\(retry 1 of 3\\)$`, 'm'));
  });

  it('name a timeout', async () => {
    server.route('GET', LEADS, silence, page(1));
    const r = await leads('--timeout', '0.3');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^Timeout; retrying ${WAIT} \\(retry 1 of 3\\)$`, 'm'));
  });
});

describe('a 429 wait on a terminal', () => {
  it('keeps the items written and the total in the progress line', async () => {
    server.route('GET', LEADS, page(1, 2), json(429, { retryAfter: 1 }), page(2, 2));
    const args = [
      'leads',
      '--all',
      '--limit',
      '1',
      '--concurrency',
      '1',
      '--json',
      '-o',
      `${tempDir('out')}/x.json`,
    ];
    const quoted = [BIN, ...args, '--base-url', server.baseUrl, '--api-key', 'k']
      .map((a) => `'${a}'`)
      .join(' ');
    const r = await execa('script', ['-qec', `stty cols 200; node ${quoted}`, '/dev/null'], {
      reject: false,
      env: { ...env, PATH: process.env.PATH, TERM: 'xterm-256color', NO_COLOR: '1' },
    });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(
      /Fetching leads… page 1 of 2 \(1 of 2\) · Rate limited by the server \(HTTP 429\); retrying in 1 s/,
    );
  });
});
