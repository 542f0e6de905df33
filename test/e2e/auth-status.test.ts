// `leadctl auth status`: what a run would use, where the key came from (masked), and one request to
// check it, whose outcome is the exit code.

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 5 });
});
afterAll(() => sandbox.close());

const tail = (key: string) => `…${key.slice(-4)}`;

describe('leadctl auth status', () => {
  it('key from LEADCTL_API_KEY: says so, masked, and spends exactly one request', async () => {
    const home = await tempConfigHome();
    const before = sandbox.requests.length;
    const r = await runCli(['auth', 'status'], {
      env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `profile   default (${home}/leadctl/config.json)\n` +
        `base URL  ${sandbox.url} (from LEADCTL_BASE_URL)\n` +
        `API key   ${tail(sandbox.apiKey)} (from LEADCTL_API_KEY)\n` +
        `server    accepted the key (this check spent 1 request: GET ${sandbox.url}/api/v1/leads?limit=1)\n`,
    );
    const sent = sandbox.requests.slice(before);
    expect(sent.map((q) => [q.method, q.path, q.query])).toEqual([['GET', '/api/v1/leads', { limit: '1' }]]);
  });

  it('key and base URL from a stored profile, and --api-key over it', async () => {
    const env = { XDG_CONFIG_HOME: await tempConfigHome() };
    await runCli(['--profile', 'work', 'config', 'set', 'base-url', sandbox.url], { env });
    await runCli(['--profile', 'work', 'config', 'set', 'api-key'], { env, input: SANDBOX_KEYS.pro });
    const stored = await runCli(['--profile', 'work', 'auth', 'status'], { env });
    expect(stored.exitCode).toBe(0);
    expect(stored.stdout).toContain(`base URL  ${sandbox.url} (from profile "work")\n`);
    expect(stored.stdout).toContain(`API key   ${tail(SANDBOX_KEYS.pro)} (from profile "work")\n`);

    const flag = await runCli(['--profile', 'work', 'auth', 'status', '--api-key', SANDBOX_KEYS.agency], {
      env,
    });
    expect(flag.stdout).toContain(`API key   ${tail(SANDBOX_KEYS.agency)} (from --api-key)\n`);
    expect(flag.stdout + flag.stderr).not.toContain(SANDBOX_KEYS.agency);
  });

  it('--sandbox: the built-in sandbox is the source', async () => {
    const r = await runCli(['auth', 'status', '--sandbox'], {
      env: { XDG_CONFIG_HOME: await tempConfigHome() },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^API key {3}…\w{4} \(from --sandbox: the built-in sandbox\)$/m);
    expect(r.stdout).toMatch(/^server {4}accepted the key \(this check spent 1 request: GET /m);
  });

  it.each([
    ['a rejected key', 'sk_wrong_key_000000000', 3, 'rejected the key (401)'],
    [
      'a deactivated account',
      SANDBOX_KEYS.deactivated,
      4,
      'refused: account deactivated or without API access (403)',
    ],
  ])('%s: exit %i, and the server line says so', async (_name, key, code, says) => {
    const r = await runCli(['auth', 'status', '--base-url', sandbox.url], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), LEADCTL_API_KEY: key },
    });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toContain(`server    ${says} (GET ${sandbox.url}/api/v1/leads?limit=1)\n`);
    expect(r.stderr).toMatch(/^leadctl: /);
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('an unreachable server: exit 6', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const r = await runCli(['auth', 'status', '--base-url', `http://127.0.0.1:${port}`, '--retries', '0'], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), LEADCTL_API_KEY: sandbox.apiKey },
    });
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toContain('server    not reached (GET ');
  });

  it('nothing configured: shows what is missing, then one error naming both, and sends nothing', async () => {
    const r = await runCli(['auth', 'status'], { env: { XDG_CONFIG_HOME: await tempConfigHome() } });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('base URL  not set\nAPI key   not set\n');
    expect(r.stdout).not.toContain('server');
    expect(r.stderr).toMatch(/^leadctl: no API base URL and no API key are configured\n/);
  });
});
