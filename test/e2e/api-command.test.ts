// `leadctl api <path>` against a server of our own: what it sends (method, path, query, body, key),
// what it prints (the body byte for byte; pages merged for --paginate), and the exit codes it shares
// with every command.
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, tempConfigHome } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer, text } from '../helpers/fake-server.js';

const KEY = 'sk_test_api_command_key_9876';
let server: FakeServer;
let env: Record<string, string>;
beforeEach(async () => {
  server = await startFakeServer();
  env = { XDG_CONFIG_HOME: await tempConfigHome(), LEADCTL_BASE_URL: server.baseUrl, LEADCTL_API_KEY: KEY };
});
afterEach(() => server.close());

const page = (n: number, items: string[], totalPages = 3) =>
  `{"history": [${items.join(', ')}], "meta": {"page": ${n}, "limit": 2, "total": 5, "totalPages": ${totalPages}}}`;

describe('leadctl api', () => {
  it('GET: the body exactly as sent (spacing, 64-bit ids, 4.50), with the key in the header only', async () => {
    const body = '{"leads": [ {"id": 12345678901234567890, "rating": 4.50} ],\n "meta": {"total": 1}}';
    server.route('GET', '/api/v1/leads', json(200, body));
    const r = await runCli(['api', 'leads?limit=5'], { env });
    expect(r).toMatchObject({ exitCode: 0, stdout: body, stderr: '' });
    expect(server.requests.map((q) => [q.method, q.url, q.headers.authorization, q.body])).toEqual([
      ['GET', '/api/v1/leads?limit=5', `Bearer ${KEY}`, ''],
    ]);
  });

  it.each(['/leads', 'api/v1/leads', '/api/v1/leads'])('%s names the same endpoint', async (path) => {
    server.route('GET', '/api/v1/leads', json(200, '{}'));
    expect((await runCli(['api', path], { env })).exitCode).toBe(0);
    expect(server.requests[0]?.url).toBe('/api/v1/leads');
  });

  it('-F fields are a JSON body sent with POST: true, false, null and integers typed as gh does', async () => {
    server.route('POST', '/api/v1/search', json(200, '{"results":[],"count":0}'));
    const r = await runCli(
      [
        'api',
        'search',
        '-F',
        'query=plumber',
        '-F',
        'radius=15',
        '-F',
        'open=true',
        '-F',
        'website=null',
        '-F',
        'zip=00501',
        '-F',
        'id=123456789012345678901',
        '-f',
        'count=7',
        '-F',
        'location=Austin, TX',
      ],
      { env },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"results":[],"count":0}');
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toBe(
      '{"query":"plumber","radius":15,"open":true,"website":null,"zip":"00501","id":123456789012345678901,' +
        '"location":"Austin, TX","count":"7"}',
    );
  });

  it('with -X GET the fields go in the query string; -X takes any method', async () => {
    server.route('GET', '/api/v1/history', json(200, '[]'));
    server.route('DELETE', '/api/v1/leads/abc', text(204, ''));
    expect((await runCli(['api', 'history?page=2', '-X', 'get', '-F', 'limit=5'], { env })).exitCode).toBe(0);
    const deleted = await runCli(['api', 'leads/abc', '-X', 'DELETE'], { env });
    expect(deleted).toMatchObject({ exitCode: 0, stdout: '' });
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'GET /api/v1/history?page=2&limit=5',
      'DELETE /api/v1/leads/abc',
    ]);
  });

  it('--paginate: every page by meta.totalPages, items merged into one array, each as sent', async () => {
    server.route(
      'GET',
      '/api/v1/history',
      json(200, page(1, ['{"id": 1, "q": "a"}', '{"id":2}'])),
      json(200, page(2, ['{"id": 3,\n "q": "b"}', '{"id":4}'])),
      json(200, page(3, ['{"id": 12345678901234567890}'])),
    );
    const r = await runCli(['api', 'history?limit=2', '--paginate'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      '[\n{"id": 1, "q": "a"},\n{"id":2},\n{"id": 3,\n "q": "b"},\n{"id":4},\n{"id": 12345678901234567890}\n]\n',
    );
    expect(server.requests.map((q) => q.url)).toEqual([
      '/api/v1/history?limit=2&page=1',
      '/api/v1/history?limit=2&page=2',
      '/api/v1/history?limit=2&page=3',
    ]);
  });

  it('--paginate with a page that fails: the array written so far is closed, and the exit code is the failure’s', async () => {
    server.route(
      'GET',
      '/api/v1/history',
      json(200, page(1, ['{"id":1}'])),
      json(401, { message: 'key revoked' }),
    );
    const r = await runCli(['api', 'history', '--paginate'], { env });
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
  });

  it('waits out a 429 and retries a 500, as every command does', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(429, { error: { message: 'slow down', retryAfter: 0 } }),
      json(500, 'oops'),
      json(200, '{"ok":1}'),
    );
    const r = await runCli(['api', 'leads', '--retries', '1'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"ok":1}');
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    [401, 3],
    [403, 4],
    [404, 2],
    [422, 2],
  ])('an answer %i is exit %i with nothing on stdout', async (status, code) => {
    server.route('GET', '/api/v1/leads', json(status, { message: 'no' }));
    const r = await runCli(['api', 'leads'], { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^leadctl: .*: no\n/);
  });

  it.each([
    ['http://elsewhere.example/api/v1/leads', 'is a full URL'],
    ['../../admin', 'points outside'],
    ['//elsewhere.example/x', undefined],
  ])('%s never leaves the API root', async (path, says) => {
    server.route('GET', '/api/v1/elsewhere.example/x', json(200, '{}'));
    const r = await runCli(['api', path], { env });
    if (says) {
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(says);
      expect(server.requests).toHaveLength(0);
    } else {
      expect(server.requests.map((q) => q.url)).toEqual(['/api/v1/elsewhere.example/x']);
    }
  });

  it('--verbose logs the attempt without the key', async () => {
    server.route('GET', '/api/v1/leads', json(200, '{}'));
    const r = await runCli(['api', 'leads', '--verbose'], { env });
    expect(r.stderr).toContain(`GET ${server.baseUrl}/api/v1/leads -> 200`);
    expect(r.stderr).not.toContain(KEY);
  });

  it('on a terminal: escape sequences from the server are shown, not run, and the key is masked', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      text(200, `{"name":"\u001b[2Jwiped\u009b31m","echo":"${KEY}"}`, 'application/json'),
    );
    const result = await execa('script', ['-qec', `node ${BIN} api leads`, '/dev/null'], {
      reject: false,
      extendEnv: false,
      env: cleanEnv(env),
    });
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toContain('{"name":"\\x1b[2Jwiped\\u009b31m","echo":"…9876"}');
    expect(String(result.stdout)).not.toContain('\u001b[2J');
  });
});
