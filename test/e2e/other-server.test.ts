// The CLI unchanged against a server that is not our sandbox: numbers as strings, nulls and missing
// fields, extra fields, no totalPages, and errors in other shapes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type FakeServer, json, startFakeServer, text } from '../helpers/fake-server.js';

let server: FakeServer;
let home: string;
beforeEach(async () => {
  server = await startFakeServer();
  home = await tempConfigHome();
});
afterEach(() => server.close());

const run = (args: string[]) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k', '--retries', '0'], {
    env: { XDG_CONFIG_HOME: home },
  });

const ODD_LEADS = {
  leads: [
    {
      id: 7,
      name: 'Acme Plumbing',
      rating: '4.5',
      review_count: '12',
      phone: null,
      crm_owner: 'dana',
      saved_at: '2026-11-20T10:00:00Z',
    },
    { id: 'b-2', name: 'Bolt Electric', rating: 'N/A', website: 'https://bolt.example' },
  ],
  meta: { page: '1', limit: '25', total: '2' },
};

describe('a server that differs from the sandbox', () => {
  it('json keeps every field, reads numeric strings as numbers and unreadable ones as null', async () => {
    server.route('GET', '/api/v1/leads', json(200, ODD_LEADS));
    const { exitCode, stdout, stderr } = await run(['leads', '--json']);
    expect(exitCode).toBe(0);
    const [first, second] = JSON.parse(stdout);
    expect(first).toMatchObject({ id: 7, rating: 4.5, review_count: 12, phone: null, crm_owner: 'dana' });
    expect(second).toMatchObject({ id: 'b-2', rating: null, website: 'https://bolt.example' });
    expect(stderr).toContain('Showing 1–2 of 2 leads (page 1 of 1).');
  });

  it('csv shows missing and null values as empty cells in spec order', async () => {
    server.route('GET', '/api/v1/leads', json(200, ODD_LEADS));
    const { stdout } = await run(['leads', '--csv']);
    const rows = parseCsv(stdout);
    expect(rows[1]).toEqual(['7', 'Acme Plumbing', '', '', '', '4.5', '12', '', '2026-11-20T10:00:00Z']);
    expect(rows[2]).toEqual(['b-2', 'Bolt Electric', '', '', 'https://bolt.example', '', '', '', '']);
  });

  it.each([
    [422, 2, 'location: field required', { detail: [{ loc: ['body', 'location'], msg: 'field required' }] }],
    [400, 2, 'radius is too large', { errors: [{ message: 'radius is too large' }] }],
    [401, 3, 'token expired', { error: 'token expired' }],
    [403, 4, 'workspace suspended', { error: { message: 'workspace suspended' } }],
    [404, 2, 'Not Found', { detail: 'Not Found' }],
  ])(
    'a %i gives exit %i, with its message "%s" from its own body shape',
    async (status, code, message, body) => {
      server.route('POST', '/api/v1/search', json(status, body));
      const { exitCode, stderr } = await run(['search', 'plumber', '-l', 'Austin']);
      expect(exitCode).toBe(code);
      expect(stderr.split('\n')[0]).toMatch(/^leadctl: /);
      expect(stderr).toContain(message);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('a plain-text 503 is retried, then reported with its text', async () => {
    server.route('GET', '/api/v1/history', text(503, 'upstream overloaded'));
    const r = await runCli(['history', '--base-url', server.baseUrl, '--api-key', 'k', '--retries', '1'], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('upstream overloaded');
    expect(server.requests).toHaveLength(2);
  });
});
