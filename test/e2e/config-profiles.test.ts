// `leadctl config profiles` and `config remove-profile`: the list with the current profile marked,
// and a removal that asks on a terminal and needs --yes anywhere else.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

async function twoProfiles(): Promise<{ env: Record<string, string>; file: string }> {
  const env = { XDG_CONFIG_HOME: tempDir('profiles') };
  await runCli(['config', 'set', 'base-url', 'https://a.example'], { env });
  await runCli(['--profile', 'work', 'config', 'set', 'base-url', 'https://b.example'], { env });
  return { env, file: join(env.XDG_CONFIG_HOME, 'leadctl', 'config.json') };
}

const storedNames = async (file: string) => Object.keys(JSON.parse(await readFile(file, 'utf8')).profiles);

describe('leadctl config profiles', () => {
  it('lists the stored profiles, one a line, * on the one this run uses', async () => {
    const { env } = await twoProfiles();
    const plain = await runCli(['config', 'profiles'], { env });
    expect(plain).toMatchObject({ exitCode: 0, stdout: '* default\n  work\n', stderr: '' });
    const viaEnv = await runCli(['config', 'profiles'], { env: { ...env, LEADCTL_PROFILE: 'work' } });
    expect(viaEnv.stdout).toBe('  default\n* work\n');
    const json = await runCli(['--profile', 'work', 'config', 'profiles', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual([
      { name: 'default', current: false },
      { name: 'work', current: true },
    ]);
  });

  it('with nothing stored: no output, and a note on how to start', async () => {
    const result = await runCli(['config', 'profiles'], { env: { XDG_CONFIG_HOME: tempDir('empty') } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no profiles are stored yet');
  });
});

describe('leadctl config remove-profile', () => {
  it('refuses without --yes when stdin is not a terminal, and changes nothing', async () => {
    const { env, file } = await twoProfiles();
    const result = await runCli(['config', 'remove-profile', 'work'], { env, input: 'y\n' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'leadctl: refusing to remove profile "work" without --yes: standard input is not a terminal\n' +
        'run: leadctl config remove-profile work --yes\n',
    );
    expect(await storedNames(file)).toEqual(['default', 'work']);
  });

  it('--yes removes that profile only; the file stays 0600', async () => {
    const { env, file } = await twoProfiles();
    const result = await runCli(['config', 'remove-profile', 'work', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Removed profile "work" from ${file}\n`);
    expect(await storedNames(file)).toEqual(['default']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await runCli(['config', 'profiles'], { env })).stdout).toBe('* default\n');
  });

  it('a profile that is not stored is exit 2 with the ones that are', async () => {
    const { env } = await twoProfiles();
    const result = await runCli(['config', 'remove-profile', 'wrok', '--yes'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('leadctl: profile "wrok" does not exist in ');
    expect(result.stderr).toContain('profiles: default, work\n');
  });

  it.each([
    ['y', ['default']],
    ['n', ['default', 'work']],
  ])('on a terminal it asks first; answering %s leaves %j', async (answer, left) => {
    const { env, file } = await twoProfiles();
    // script(1) gives the command a terminal; what we type goes through it.
    const result = await execa('script', ['-qec', `node ${BIN} config remove-profile work`, '/dev/null'], {
      input: `${answer}\n`,
      reject: false,
      extendEnv: false,
      env: cleanEnv(env),
    });
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toContain(`Remove profile "work" (base-url) from ${file}? [y/N]`);
    expect(await storedNames(file)).toEqual(left);
  });
});
