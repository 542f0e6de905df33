// The config under a provisioning script's load and in odd places: concurrent writers all kept, a
// folder others can open reported, a plain-http base URL refused when it is set (not when used), and
// an XDG path nothing can be created in refused at once with the path, never a spin.
import { chmod, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBinary, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('config writes', () => {
  it('20 concurrent config set on different profiles and keys keep all 20', async () => {
    const home = tempDir('config-race');
    const env = { XDG_CONFIG_HOME: home };
    const runs = Array.from({ length: 20 }, (_, i) =>
      runBinary(
        ['--profile', `p${i % 10}`, 'config', 'set', i < 10 ? 'timeout' : 'retries', String((i % 10) + 1)],
        {
          env,
        },
      ),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => r.exitCode)).toEqual(Array(20).fill(0));
    const { profiles } = JSON.parse(await readFile(join(home, 'leadctl', 'config.json'), 'utf8'));
    const expected = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`p${i}`, { timeout: i + 1, retries: i + 1 }]),
    );
    expect(profiles).toEqual(expected);
    expect((await stat(join(home, 'leadctl'))).mode & 0o777).toBe(0o700);
  });

  it('a profile removed while others are written: the removal and every write kept', async () => {
    const home = tempDir('config-remove-race');
    const env = { XDG_CONFIG_HOME: home };
    expect((await runCli(['--profile', 'old', 'config', 'set', 'timeout', '9'], { env })).exitCode).toBe(0);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        runBinary(['--profile', `p${i}`, 'config', 'set', 'timeout', String(i + 1)], { env }),
      ),
      runBinary(['config', 'remove-profile', 'old', '--yes'], { env }),
    ]);
    expect(results.map((r) => r.exitCode)).toEqual(Array(11).fill(0));
    const { profiles } = JSON.parse(await readFile(join(home, 'leadctl', 'config.json'), 'utf8'));
    expect(profiles).toEqual(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { timeout: i + 1 }])),
    );
  });

  it('takes over a lock a killed leadctl left (older than 10 s) and keeps no lock after writing', async () => {
    const home = tempDir('config-stale-lock');
    const lock = join(home, 'leadctl', 'config.json.lock');
    await mkdir(lock, { recursive: true, mode: 0o700 });
    await chmod(join(home, 'leadctl'), 0o700);
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    const result = await runCli(['config', 'set', 'timeout', '7'], { env: { XDG_CONFIG_HOME: home } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(await readFile(join(home, 'leadctl', 'config.json'), 'utf8')).profiles).toEqual({
      default: { timeout: 7 },
    });
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('warns when the config folder is open to others, like the file', async () => {
    const home = tempDir('config-folder');
    const dir = join(home, 'leadctl');
    await mkdir(dir);
    await writeFile(join(dir, 'config.json'), '{"profiles": {"default": {"format": "csv"}}}', {
      mode: 0o600,
    });
    await chmod(dir, 0o755);
    const result = await runCli(['config', 'get', 'format'], { env: { XDG_CONFIG_HOME: home } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('csv\n');
    expect(result.stderr).toContain(
      `leadctl: warning: config folder ${dir} is open to group or others (mode 755); run: chmod 700 ${dir}`,
    );
  });

  it('refuses to store a plain-http base URL off this machine, with the reason commands give', async () => {
    const home = tempDir('config-http');
    const env = { XDG_CONFIG_HOME: home };
    const refused = await runCli(['config', 'set', 'base-url', 'http://example.com'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'leadctl: refusing to send the API key over plain http:// to example.com: anyone on the way could read it',
    );
    const command = await runCli(
      ['leads', '--base-url', 'http://example.com', '--api-key', 'sk_test_12345678'],
      {
        env,
      },
    );
    expect(command.stderr.split('\n')[0]).toBe(refused.stderr.split('\n')[0]);
    const loopback = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:8080'], { env });
    expect(loopback.exitCode).toBe(0);
  });

  it('an XDG_CONFIG_HOME where nothing can be created fails at once with exit 2 and the path', async () => {
    const result = await runCli(['config', 'set', 'format', 'csv'], {
      env: { XDG_CONFIG_HOME: '/proc/leadctl-no-such/xdg' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'leadctl: cannot create config folder /proc/leadctl-no-such/xdg/leadctl:',
    );
  });
});
