// Text from the server is untrusted wherever it shows: errors, notices and warnings never carry the
// key in use, an escape sequence or a bidi control raw; tables show zero-width characters visibly
// and stay aligned; TSV gets csv's formula guard.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'sk_live_echoed_back_7q3w';
let server: FakeServer;

beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const leads = (rows: Record<string, unknown>[]) =>
  json(200, { leads: rows, meta: { page: 1, limit: 25, total: rows.length, totalPages: 1 } });
const run = (args: string[]) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', KEY], {
    env: { XDG_CONFIG_HOME: tempDir('server-text') },
  });
/** Raw ESC, BEL, C1 controls, bidi controls or zero-width characters: none may reach a terminal. */
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

describe('the key in use', () => {
  it('is masked when the server echoes it in an error, with --verbose too', async () => {
    server.route('GET', '/api/v1/leads', json(401, { message: `invalid API key ${KEY} for this account` }));
    for (const extra of [[], ['--verbose']]) {
      const result = await run(['leads', ...extra]);
      expect(result.exitCode).toBe(3);
      expect(result.stderr).toContain(
        'leadctl: the server rejected the API key (401): invalid API key …7q3w for this account',
      );
      expect(result.stderr + result.stdout).not.toContain(KEY);
    }
  });

  it('is masked in a notice quoting the server (a deprecation header)', async () => {
    server.route('GET', '/api/v1/leads', (res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-api-deprecation-notice': `keys like ${KEY} retire soon`,
      });
      res.end(JSON.stringify({ leads: [], meta: { page: 1, limit: 25, total: 0, totalPages: 1 } }));
    });
    const result = await run(['leads', '--json']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('keys like …7q3w retire soon');
    expect(result.stderr).not.toContain(KEY);
  });
});

describe('escape sequences and bidi controls in server text', () => {
  it('a retryAfter carrying an OSC hyperlink is quoted visibly', async () => {
    const osc = '\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007';
    server.route('GET', '/api/v1/leads', json(429, { error: 'rate_limited', retryAfter: osc }));
    const result = await run(['leads']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('\\x1b]8;;http://evil.example\\x07click');
    expect(result.stderr).not.toMatch(RAW_UNSAFE);
  });

  it('a bidi override in an error message is shown as \\u202e, not obeyed', async () => {
    server.route('GET', '/api/v1/leads', json(422, { message: 'bad page \u202Egnp.exe\u2066 \u200Bhidden' }));
    const result = await run(['leads']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('bad page \\u202egnp.exe\\u2066 \\u200bhidden');
    expect(result.stderr).not.toMatch(RAW_UNSAFE);
  });
});

describe('tables and TSV', () => {
  it('a zero-width space is shown visibly and the table stays aligned', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      leads([
        { id: '1', name: 'Ac\u200Bme Plumbing', phone: '+1 512-555-0101' },
        { id: '2', name: 'Zed\uFEFF Roofing', phone: '+1 512-555-0102' },
        { id: '3', name: 'Plain Name', phone: '+1 512-555-0103' },
      ]),
    );
    const result = await run(['leads', '--format', 'table', '--fields', 'name,phone']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Ac\\u200bme Plumbing');
    expect(result.stdout).not.toMatch(RAW_UNSAFE);
    // Columns a terminal shows: zero-width characters take none; the phone column starts at the same one on every line.
    const phoneAt = (line: string) =>
      Array.from(line.replace(/[\u200b\ufeff]/g, '').replace(/phone|\+1.*/, '')).length;
    const lines = result.stdout.trimEnd().split('\n');
    expect(new Set(lines.map(phoneAt)).size).toBe(1);
  });

  it('TSV guards cells a spreadsheet would run as formulas, unless --no-sanitize', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      leads([
        {
          id: '1',
          name: '=HYPERLINK("http://evil.example")',
          phone: '+1 512-555-0101',
          category: '@SUM(A1)',
        },
        { id: '2', name: '-2+3', phone: '-12.5', category: '\tTabbed' },
      ]),
    );
    const guarded = await run(['leads', '--format', 'tsv', '--fields', 'name,phone,category', '--no-header']);
    expect(guarded.exitCode).toBe(0);
    expect(guarded.stdout).toBe(
      `'=HYPERLINK("http://evil.example")\t+1 512-555-0101\t'@SUM(A1)\n'-2+3\t-12.5\t'\\tTabbed\n`,
    );
    const raw = await run(['leads', '--format', 'tsv', '--fields', 'name', '--no-header', '--no-sanitize']);
    expect(raw.stdout).toBe('=HYPERLINK("http://evil.example")\n-2+3\n');
  });
});
