// What leadctl says when something needs the user's attention: the server's deprecation notice and
// sunset, a rejected key's real source, TLS spoken to a plain-http port. Each through the built binary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const LEADS = '/api/v1/leads';
const page = { leads: [{ id: 'a', name: 'Acme' }], meta: { page: 1, limit: 25, total: 1, totalPages: 1 } };
let server: FakeServer;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startFakeServer();
  env = { XDG_CONFIG_HOME: tempDir('messages') };
});
afterEach(() => server.close());

const stderrLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '');

describe('deprecation warning', () => {
  it('quotes the notice and says the sunset date has passed, once per run', async () => {
    const headers = {
      Deprecation: 'true',
      Sunset: 'Thu, 01 Jan 2026 00:00:00 GMT',
      'X-Api-Deprecation-Notice': 'Free and Pro API access ends on 2026-01-01;\x9b2J upgrade to Agency.',
    };
    const twoPages = (n: number) =>
      json(200, { leads: [{ id: `l${n}` }], meta: { page: n, limit: 1, total: 2, totalPages: 2 } }, headers);
    server.route('GET', LEADS, twoPages(1), twoPages(2));
    const r = await runCli(
      ['leads', '--all', '--limit', '1', '--base-url', server.baseUrl, '--api-key', 'k'],
      {
        env,
      },
    );
    expect(r.exitCode).toBe(0);
    const warnings = stderrLines(r.stderr).filter((line) => /deprecated/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^leadctl: warning: the server says this API is deprecated: "Free and Pro API access ends on 2026-01-01;\\u009b2J upgrade to Agency\."; sunset 2026-01-01, \d+ days ago: it may stop answering at any time\.$/,
    );
  });

  it('says a future sunset is to come', async () => {
    server.route('GET', LEADS, json(200, page, { Sunset: 'Fri, 01 Jan 2100 00:00:00 GMT' }));
    const r = await runCli(['leads', '--base-url', server.baseUrl, '--api-key', 'k'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /leadctl: warning: the server says this API is deprecated; sunset 2100-01-01, in \d+ days\.\n/,
    );
  });
});

describe('a rejected key', () => {
  beforeEach(() => server.route('GET', LEADS, json(401, { message: 'invalid key' })));
  const hintOf = (stderr: string) => stderrLines(stderr).slice(-1)[0];

  it('from LEADCTL_API_KEY: says so, and that the variable wins over the stored key', async () => {
    const r = await runCli(['leads', '--base-url', server.baseUrl], {
      env: { ...env, LEADCTL_API_KEY: 'k' },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('leadctl: the server rejected the API key (401): invalid key\n');
    expect(hintOf(r.stderr)).toBe(
      'the key came from LEADCTL_API_KEY, which wins over the stored key: correct it, or unset LEADCTL_API_KEY',
    );
  });

  it('from --api-key: says so', async () => {
    const r = await runCli(['leads', '--base-url', server.baseUrl, '--api-key', 'k'], { env });
    expect(r.exitCode).toBe(3);
    expect(hintOf(r.stderr)).toBe(
      'the key came from --api-key: check it, or leave --api-key out to use the stored key',
    );
  });

  it('from a stored profile: names the profile and the command that replaces its key', async () => {
    await runCli(['--profile', 'work', 'config', 'set', 'api-key'], { env, input: 'k' });
    const r = await runCli(['--profile', 'work', 'leads', '--base-url', server.baseUrl], { env });
    expect(r.exitCode).toBe(3);
    expect(hintOf(r.stderr)).toBe(
      'the key came from profile "work": run: leadctl --profile work config set api-key',
    );
  });
});

describe('TLS to a plain-http port', () => {
  it('says the server answered in plain HTTP', async () => {
    const plain = server.baseUrl.replace('http://', 'https://');
    const r = await runCli(['leads', '--base-url', plain, '--api-key', 'k'], { env });
    expect(r.exitCode).toBe(6);
    expect(stderrLines(r.stderr)).toEqual([
      expect.stringMatching(
        /^leadctl: secure connection to 127\.0\.0\.1:\d+ failed: it answered in plain HTTP, not TLS \(ERR_SSL_\w+\)$/,
      ),
      'use http:// in --base-url for a plain-http port, or the port that serves https',
    ]);
  });
});
