// Wrong turns a person takes, answered in-process (main() with plain streams): a base URL that does not
// parse is still shown without its password.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const BAD_URL = 'https://user:hunter2@host:99999';

describe('a base URL with a password that does not parse', () => {
  it.each([
    ['--base-url', ['leads', '--base-url', BAD_URL, '--api-key', 'k'], {}, 'invalid --base-url'],
    [
      'LEADCTL_BASE_URL',
      ['leads', '--api-key', 'k'],
      { LEADCTL_BASE_URL: BAD_URL },
      'invalid LEADCTL_BASE_URL',
    ],
    ['config set', ['config', 'set', 'base-url', BAD_URL], {}, 'invalid base-url'],
    ['auth login', ['auth', 'login', '--with-token', '--base-url', BAD_URL], {}, 'invalid --base-url'],
  ])('%s: exit 2, the URL shown without user name and password', async (_, args, env, start) => {
    const r = await runCli(args, { env, input: 'k\n' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `leadctl: ${start} "https://***@host:99999": expected an http:// or https:// URL\n`,
    );
  });

  it('stored in the profile: the same', async () => {
    const home = tempDir('config');
    await mkdir(join(home, 'leadctl'));
    const profile = { 'base-url': BAD_URL, 'api-key': 'k' };
    await writeFile(join(home, 'leadctl', 'config.json'), JSON.stringify({ profiles: { default: profile } }));
    const r = await runCli(['leads'], { env: { XDG_CONFIG_HOME: home } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid base-url "https://***@host:99999" in profile "default"');
    expect(r.stderr).not.toContain('hunter2');
  });
});

describe('search -o FILE --append, as the README appends new places night after night', () => {
  it('adds each run to the file with the header once', async () => {
    const file = join(tempDir('append'), 'plumbers.csv');
    const args = ['search', 'plumber', '-l', 'Austin', '--sandbox', '-o', file, '--append'];
    expect((await runCli(args)).exitCode).toBe(0);
    const once = await readFile(file, 'utf8');
    expect((await runCli([...args.slice(0, 3), 'Dallas', ...args.slice(4)])).exitCode).toBe(0);
    const rows = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
    expect(rows.filter((row) => row.startsWith('place_id,name,'))).toHaveLength(1);
    expect(rows.length).toBeGreaterThan(once.trimEnd().split('\r\n').length);
  });

  it.each([
    [['search', 'plumber', '-l', 'Austin', '--sandbox', '--append'], '--append needs -o <file>'],
    [
      ['search', '--input', 'x.csv', '--sandbox', '-o', 'y.csv', '--append'],
      'a stopped batch goes on with --resume',
    ],
  ])('%j: exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
