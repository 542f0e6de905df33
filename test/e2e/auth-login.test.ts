// `leadctl auth login` and `auth logout` as a person and a script use them: the key checked with one
// request before it is stored (a rejected key never is), --with-token from a pipe, the prompts on a
// real terminal (the key not echoed), and logout saying which key it removed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 5 });
});
afterAll(() => sandbox.close());

const stored = (home: string) =>
  JSON.parse(readFileSync(join(home, 'leadctl', 'config.json'), 'utf8')) as {
    profiles: Record<string, Record<string, string>>;
  };

describe('auth login --with-token', () => {
  it('checks the key with one request, then stores base URL and key in the named profile', async () => {
    const home = await tempConfigHome();
    const before = sandbox.requests.length;
    const r = await runCli(
      ['--profile', 'work', 'auth', 'login', '--with-token', '--base-url', sandbox.url],
      {
        env: { XDG_CONFIG_HOME: home },
        input: `${SANDBOX_KEYS.pro}\n`,
      },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `The server accepted the key (this check spent 1 request: GET ${sandbox.url}/api/v1/leads?limit=1).\n` +
        `Saved base-url ${sandbox.url} and api-key …${SANDBOX_KEYS.pro.slice(-4)} for profile "work" in ${home}/leadctl/config.json\n`,
    );
    expect(sandbox.requests.slice(before).map((q) => [q.method, q.path])).toEqual([['GET', '/api/v1/leads']]);
    expect(stored(home).profiles).toEqual({ work: { 'base-url': sandbox.url, 'api-key': SANDBOX_KEYS.pro } });
    expect(statSync(join(home, 'leadctl', 'config.json')).mode & 0o777).toBe(0o600);
    // The stored profile now works on its own.
    const leads = await runCli(['--profile', 'work', 'leads', '--json'], { env: { XDG_CONFIG_HOME: home } });
    expect(leads.exitCode).toBe(0);
  });

  it('a key the server rejects is not stored: exit 3', async () => {
    const home = await tempConfigHome();
    const r = await runCli(['auth', 'login', '--with-token', '--base-url', sandbox.url], {
      env: { XDG_CONFIG_HOME: home },
      input: 'sk_not_a_key_0000\n',
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^leadctl: the server rejected the API key \(401\)/);
    expect(r.stderr).toContain('\nnothing was stored: check the key, then run: leadctl auth login\n');
    expect(r.stderr).not.toContain('sk_not_a_key_0000');
    expect(() => stored(home)).toThrow();
  });

  it('without a base URL anywhere, off a terminal: exit 2 saying how to give one', async () => {
    const r = await runCli(['auth', 'login', '--with-token'], {
      env: { XDG_CONFIG_HOME: await tempConfigHome() },
      input: `${SANDBOX_KEYS.pro}\n`,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `leadctl: auth login needs the API's base URL, and profile "default" has none\n` +
        'give it: leadctl auth login --base-url <url> --with-token\n',
    );
  });

  it('takes LEADCTL_BASE_URL when no flag gives one', async () => {
    const home = await tempConfigHome();
    const r = await runCli(['auth', 'login', '--with-token'], {
      env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: sandbox.url },
      input: SANDBOX_KEYS.agency,
    });
    expect(r.exitCode).toBe(0);
    expect(stored(home).profiles.default).toEqual({
      'base-url': sandbox.url,
      'api-key': SANDBOX_KEYS.agency,
    });
  });
});

describe('auth logout', () => {
  it('removes the stored key and says which; the base URL stays', async () => {
    const home = await tempConfigHome();
    const env = { XDG_CONFIG_HOME: home };
    await runCli(['auth', 'login', '--with-token', '--base-url', sandbox.url], {
      env,
      input: SANDBOX_KEYS.pro,
    });
    const r = await runCli(['auth', 'logout'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `Removed the API key …${SANDBOX_KEYS.pro.slice(-4)} from profile "default" in ${home}/leadctl/config.json.\n`,
    );
    expect(stored(home).profiles.default).toEqual({ 'base-url': sandbox.url });
    const again = await runCli(['auth', 'logout'], { env });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe('Profile "default" has no stored API key; nothing was removed.\n');
  });
});

describe('auth login on a terminal', () => {
  it('asks for the base URL and the key, without echoing the key', async () => {
    const home = await tempConfigHome();
    const run = runInPty(['auth', 'login'], { env: { XDG_CONFIG_HOME: home } });
    await run.waitFor('API base URL');
    run.type(`${sandbox.url}\r`);
    await run.waitFor('API key: ');
    run.type(`${SANDBOX_KEYS.pro}\r`);
    const { exitCode, output, modes } = await run.exited;
    expect(exitCode).toBe(0);
    expect(output).toContain(`Saved base-url ${sandbox.url} and api-key …${SANDBOX_KEYS.pro.slice(-4)}`);
    expect(output).not.toContain(SANDBOX_KEYS.pro);
    expect(modes.echo && modes.icanon && modes.isig).toBe(true);
    expect(stored(home).profiles.default).toEqual({ 'base-url': sandbox.url, 'api-key': SANDBOX_KEYS.pro });
  });

  it('api pretty-prints JSON on a terminal', async () => {
    const run = runInPty(['api', 'leads?limit=1', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), NO_COLOR: '1' },
    });
    const { exitCode, output } = await run.exited;
    expect(exitCode).toBe(0);
    expect(output).toMatch(/^\{\r\n {2}"leads": \[\r\n {4}\{\r\n {6}"id": /);
  });
});
