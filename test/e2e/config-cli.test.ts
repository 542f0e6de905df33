// leadctl config through the built binary: where settings live, which one wins, and a broken file.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 40 });
});
afterAll(() => sandbox.close());

describe('leadctl config', () => {
  it('stores a profile in $XDG_CONFIG_HOME/leadctl/config.json, 0600 in a 0700 folder, and commands use it', async () => {
    const home = await tempConfigHome();
    const env = { XDG_CONFIG_HOME: home };
    expect((await runCli(['config', 'set', 'base-url', sandbox.url], { env })).exitCode).toBe(0);
    const set = await runCli(['config', 'set', 'api-key'], { env, input: `${sandbox.apiKey}\n` });
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe('');
    const path = (await runCli(['config', 'path'], { env })).stdout.trim();
    expect(path).toBe(join(home, 'leadctl', 'config.json'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'leadctl'))).mode & 0o777).toBe(0o700);
    const list = await runCli(['config', 'list'], { env });
    expect(list.stdout).toBe(`api-key=…${sandbox.apiKey.slice(-4)}\nbase-url=${sandbox.url}\n`);
    const leads = await runCli(['leads', '--limit', '3'], { env });
    expect(leads.exitCode).toBe(0);
    expect(JSON.parse(leads.stdout)).toHaveLength(3);
  });

  it('flag > environment > profile > default', async () => {
    const home = await tempConfigHome();
    await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9/from-profile'], {
      env: { XDG_CONFIG_HOME: home },
    });
    const viaEnv = await runCli(['leads', '--limit', '1', '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: sandbox.url },
    });
    expect(viaEnv.exitCode).toBe(0);
    const viaFlag = await runCli(
      ['leads', '--limit', '1', '--base-url', sandbox.url, '--api-key', sandbox.apiKey],
      {
        env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: 'http://127.0.0.1:9/from-env' },
      },
    );
    expect(viaFlag.exitCode).toBe(0);
    const viaProfile = await runCli(['leads', '--retries', '0', '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(viaProfile.exitCode).toBe(6); // the profile's unreachable port was used
  });

  it('profiles are separate, and --profile selects one', async () => {
    const home = await tempConfigHome();
    const env = { XDG_CONFIG_HOME: home };
    await runCli(['--profile', 'work', 'config', 'set', 'format', 'csv'], { env });
    expect((await runCli(['--profile', 'work', 'config', 'get', 'format'], { env })).stdout).toBe('csv\n');
    expect((await runCli(['config', 'get', 'format'], { env })).exitCode).toBe(2);
    const missing = await runCli(['--profile', 'nope', 'config', 'list'], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('work');
  });

  it('a hand-broken file: exit 2 with its path and what is wrong, and it is left as it was', async () => {
    const home = await tempConfigHome();
    const env = { XDG_CONFIG_HOME: home };
    await runCli(['config', 'set', 'base-url', sandbox.url], { env });
    const path = join(home, 'leadctl', 'config.json');
    const broken = '{ "profiles": { "default": { "base-url": "x", } } ';
    await writeFile(path, broken);
    for (const args of [['leads'], ['config', 'list'], ['config', 'set', 'timeout', '5']]) {
      const r = await runCli(args, { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(path);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await readFile(path, 'utf8')).toBe(broken);
  });

  it('refuses unknown keys and bad values with exit 2', async () => {
    const env = { XDG_CONFIG_HOME: await tempConfigHome() };
    expect((await runCli(['config', 'set', 'apikey', 'x'], { env })).exitCode).toBe(2);
    expect((await runCli(['config', 'set', 'retries', '99'], { env })).exitCode).toBe(2);
    expect((await runCli(['config', 'set', 'base-url', 'ftp://x'], { env })).exitCode).toBe(2);
    expect((await runCli(['config', 'set', 'format', 'xml'], { env })).exitCode).toBe(2);
  });
});
