import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { runConfigGet, runConfigList, runConfigSet, runConfigUnset } from '../../src/commands/config/run.js';
import { configDir, configFile } from '../../src/config/paths.js';
import { resolveSettings } from '../../src/config/settings.js';
import { tempDir } from '../helpers/temp.js';

/** The error a promise rejects with; fails the test when it resolves. */
const SECRET = 'sk_live_do_not_print_me_7890';

async function configHome(text?: string) {
  const root = tempDir('store');
  const path = join(root, 'leadctl', 'config.json');
  if (text !== undefined) {
    await mkdir(join(root, 'leadctl'), { mode: 0o700 });
    await writeFile(path, text);
    await chmod(path, 0o600);
  }
  return { env: { XDG_CONFIG_HOME: root } as NodeJS.ProcessEnv, root, path };
}

function io(env: NodeJS.ProcessEnv, stdinText = '') {
  const stdin = Object.assign(Readable.from([stdinText]), { isTTY: false });
  return {
    io: { stdout: new PassThrough(), stderr: new PassThrough(), stdin, env },
    globals: { profile: 'default' },
    signal: new AbortController().signal,
  };
}

describe('config paths', () => {
  it('uses $XDG_CONFIG_HOME/leadctl, else ~/.config/leadctl with HOME from env', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' })).toBe('/x/cfg/leadctl');
    expect(configFile({ HOME: '/home/u' })).toBe('/home/u/.config/leadctl/config.json');
    // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
    expect(configFile({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe(
      '/home/u/.config/leadctl/config.json',
    );
  });
});

describe('a broken config file is reported, never rewritten', () => {
  const broken: Array<[string, string, RegExp]> = [
    [
      'bad JSON',
      `{"profiles": {"default": {"api-key": "${SECRET}" }}`,
      /is not valid JSON \(Expected ',' or '}' after property value at line 1, column \d+\); fix or remove it$/,
    ],
    [
      'bad token',
      `{"profiles": {"default": {"api-key": ${SECRET}}}}`,
      /is not valid JSON \(Unexpected token 's'\)/,
    ],
    ['a top-level array', '[1, 2]', /must hold a JSON object, found an array; fix or remove it$/],
    [
      'profiles not an object',
      '{"profiles": "default"}',
      /"profiles" in config file .* must be an object, found a string$/,
    ],
    [
      'a profile not an object',
      '{"profiles": {"work": [1]}}',
      /profile "work" in config file .* must be an object, found an array$/,
    ],
  ];

  it.each(broken)(
    '%s: UsageError naming the file, bytes untouched by reads and by set',
    async (_name, text, reason) => {
      const { env, path } = await configHome(text);
      const before = await readFile(path);
      for (const attempt of [
        () => resolveSettings({}, env),
        () => runConfigSet('timeout', '5', io(env)),
        () => runConfigSet('api-key', undefined, io(env, 'new-key-123456789012')),
        () => runConfigUnset('timeout', io(env)),
        () => runConfigList({ reveal: false }, io(env)),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).message).toContain(path);
        expect((error as UsageError).message).toMatch(reason);
        expect((error as UsageError).message).not.toContain(SECRET);
      }
      expect(await readFile(path)).toEqual(before);
    },
  );

  it('a stored value of the wrong type: UsageError with path and fix, file untouched', async () => {
    const text = '{"profiles": {"default": {"retries": true, "format": 3}}}';
    const { env, path } = await configHome(text);
    await expect(resolveSettings({}, env)).rejects.toThrow(UsageError);
    await expect(runConfigGet('retries', { reveal: false }, io(env))).rejects.toMatchObject({
      message: `invalid retries "true" in profile "default" (${path}): expected a number`,
      hint: expect.stringContaining('leadctl config set retries <value>'),
    });
    await expect(runConfigGet('format', { reveal: false }, io(env))).rejects.toMatchObject({
      message: `invalid format "3" in profile "default" (${path}): expected a string`,
    });
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('set can repair a broken value of the profile it writes', async () => {
    const { env, path } = await configHome('{"profiles": {"default": {"retries": true}}}');
    await runConfigSet('retries', '2', io(env));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ profiles: { default: { retries: 2 } } });
  });

  it('a blank file counts as empty and is replaced by the first set', async () => {
    const { env, path } = await configHome('  \n');
    await expect(resolveSettings({}, env)).resolves.toMatchObject({ timeoutSec: 30 });
    await runConfigSet('timeout', '4', io(env));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ profiles: { default: { timeout: 4 } } });
  });
});

describe('writes', () => {
  it('create the folder 0700 and the file 0600', async () => {
    const { env, path, root } = await configHome();
    await runConfigSet('base-url', 'https://api.example.com', io(env));
    expect((await stat(join(root, 'leadctl'))).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('restore mode 0600 on a file that had a looser mode, which silences the warning', async () => {
    const { env, path } = await configHome('{"profiles": {}}');
    await chmod(path, 0o644);
    expect((await resolveSettings({}, env)).warnings).toHaveLength(1);
    await runConfigSet('format', 'json', io(env));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await resolveSettings({}, env)).warnings).toEqual([]);
  });

  it('keep other profiles, unknown top-level keys and dotted profile names as they were', async () => {
    const original = {
      note: { keep: true },
      profiles: { 'a.b': { retries: 1, extra: 'x' }, default: { timeout: 9 } },
    };
    const { env, path } = await configHome(JSON.stringify(original));
    await runConfigSet('timeout', '10', io(env));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      ...original,
      profiles: { ...original.profiles, default: { timeout: 10 } },
    });
  });
});
