import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import {
  runConfigGet,
  runConfigList,
  runConfigPath,
  runConfigSet,
  runConfigUnset,
} from '../../src/commands/config/run.js';
import type { CommandContext } from '../../src/session.js';
import { tempDir } from '../helpers/temp.js';

/** The error a promise rejects with; fails the test when it resolves. */
const KEY = 'sk_test_0123456789abcdef_WXYZ';

async function home() {
  const root = tempDir('run');
  return { env: { XDG_CONFIG_HOME: root } as NodeJS.ProcessEnv, path: join(root, 'leadctl', 'config.json') };
}

interface Captured {
  io: CommandContext;
  stdout: () => string;
  stderr: () => string;
}

function capture(
  env: NodeJS.ProcessEnv,
  options: { profile?: string; quiet?: boolean; stdin?: string } = {},
): Captured {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const read = (stream: PassThrough) => () => String(stream.read() ?? '');
  const stdin = Object.assign(Readable.from([options.stdin ?? '']), { isTTY: false });
  return {
    io: {
      io: { stdout, stderr, stdin, env },
      globals: { profile: options.profile, quiet: options.quiet || undefined },
      signal: new AbortController().signal,
    },
    stdout: read(stdout),
    stderr: read(stderr),
  };
}

async function stored(path: string) {
  return JSON.parse(await readFile(path, 'utf8'));
}

describe('config set', () => {
  it('reads api-key from piped stdin, trimmed; data-free stdout; a saved line on stderr', async () => {
    const { env, path } = await home();
    const run = capture(env, { stdin: `  ${KEY}\n` });
    await runConfigSet('api-key', undefined, run.io);
    expect(await stored(path)).toEqual({ profiles: { default: { 'api-key': KEY } } });
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(`Saved api-key for profile "default" in ${path}\n`);
  });

  it('refuses empty stdin without writing a file', async () => {
    const { env, path } = await home();
    await expect(runConfigSet('api-key', undefined, capture(env, { stdin: ' \n' }).io)).rejects.toThrow(
      'no key on standard input',
    );
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes api-key as an argument too, with a shell-history note (none with quiet)', async () => {
    const { env, path } = await home();
    const loud = capture(env);
    await runConfigSet('api-key', ` ${KEY} `, loud.io);
    expect(loud.stderr()).toMatch(/^leadctl: note: .*shell history.*\nSaved api-key/);
    const quiet = capture(env, { quiet: true });
    await runConfigSet('api-key', KEY, quiet.io);
    expect(quiet.stderr()).toBe('');
    expect((await stored(path)).profiles.default['api-key']).toBe(KEY);
  });

  it.each([
    ['timeout', '2.5', 2.5],
    ['retries', '0', 0],
    ['max-wait', '0', 0],
    ['format', 'ndjson', 'ndjson'],
    ['plan', ' agency ', 'agency'],
    ['base-url', ' http://127.0.0.1:8080 ', 'http://127.0.0.1:8080'],
  ])('stores %s %j as %j', async (key, value, expected) => {
    const { env, path } = await home();
    await runConfigSet(key, value, capture(env).io);
    expect((await stored(path)).profiles.default[key]).toBe(expected);
  });

  it.each([
    ['timeout', '0', 'invalid timeout "0": expected a number of seconds > 0'],
    ['retries', '11', 'invalid retries "11": expected a whole number from 0 to 10'],
    ['max-wait', 'soon', 'invalid max-wait "soon": expected a number of seconds >= 0'],
    ['format', 'xml', 'invalid format "xml": expected one of table, json, ndjson, csv, tsv'],
    ['plan', 'Agency+', 'invalid plan "Agency+": expected one of free, pro, agency'],
    [
      'base-url',
      'api.example.com',
      'invalid base-url "api.example.com": expected an http:// or https:// URL',
    ],
    [
      'base-url',
      'https://u:pw@h.test',
      'invalid base-url "https://***@h.test/": a user name or password in the URL is not allowed',
    ],
    ['api-key', 'two words', 'invalid api-key: expected printable ASCII characters without spaces'],
    ['timeout', undefined, 'missing value for timeout'],
  ])('refuses %s %j', async (key, value, message) => {
    const { env, path } = await home();
    await expect(runConfigSet(key, value, capture(env).io)).rejects.toMatchObject({
      name: 'UsageError',
      message,
    });
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses an unknown key, suggesting the nearest and listing all', async () => {
    const { env } = await home();
    const near = runConfigSet('apiKey', KEY, capture(env).io);
    await expect(near).rejects.toBeInstanceOf(UsageError);
    await expect(near).rejects.toMatchObject({
      message: 'unknown config key "apiKey"; did you mean "api-key"?',
      hint: 'keys: api-key, base-url, format, timeout, retries, max-wait, plan, bom, db-url',
    });
    await expect(runConfigSet('colour', 'x', capture(env).io)).rejects.toThrow(
      /^unknown config key "colour"$/,
    );
  });
});

describe('config get / unset / list / path', () => {
  async function withValues(profile = 'default') {
    const { env, path } = await home();
    await runConfigSet('api-key', KEY, capture(env, { profile, quiet: true }).io);
    await runConfigSet('timeout', '12', capture(env, { profile, quiet: true }).io);
    return { env, path };
  }

  it('get prints the value; api-key masked unless reveal', async () => {
    const { env } = await withValues();
    for (const [key, reveal, expected] of [
      ['api-key', false, '…WXYZ\n'],
      ['api-key', true, `${KEY}\n`],
      ['timeout', false, '12\n'],
    ] as const) {
      const run = capture(env);
      await runConfigGet(key, { reveal }, run.io);
      expect(run.stdout()).toBe(expected);
      expect(run.stderr()).toBe('');
    }
  });

  it('get of an unset key: UsageError (exit 2), nothing on stdout, hint with the default', async () => {
    const { env } = await home();
    const run = capture(env);
    await expect(runConfigGet('retries', { reveal: false }, run.io)).rejects.toMatchObject({
      message: 'retries is not set for profile "default"',
      exitCode: 2,
      hint: expect.stringContaining('the default is 3'),
    });
    expect(run.stdout()).toBe('');
  });

  it('unset removes the key; unsetting again is a no-op with a note', async () => {
    const { env, path } = await withValues();
    const first = capture(env);
    await runConfigUnset('timeout', first.io);
    expect(first.stderr()).toBe(`Removed timeout from profile "default" in ${path}\n`);
    expect(await stored(path)).toEqual({ profiles: { default: { 'api-key': KEY } } });
    const again = capture(env);
    await runConfigUnset('timeout', again.io);
    expect(again.stderr()).toBe('timeout is not set for profile "default"; nothing to remove\n');
  });

  it('unset can remove an unknown key a hand edit left, but refuses an unknown absent one', async () => {
    const { env, path } = await withValues();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path, JSON.stringify({ profiles: { default: { apikey: 'oops' } } }));
    await runConfigUnset('apikey', capture(env, { quiet: true }).io);
    expect(await stored(path)).toEqual({ profiles: { default: {} } });
    await expect(runConfigUnset('colour', capture(env).io)).rejects.toThrow('unknown config key "colour"');
  });

  it('list prints key=value in key order with the key masked, context on stderr', async () => {
    const { env, path } = await withValues();
    await runConfigSet('format', 'csv', capture(env, { quiet: true }).io);
    const run = capture(env);
    await runConfigList({ reveal: false }, run.io);
    expect(run.stdout()).toBe('api-key=…WXYZ\nformat=csv\ntimeout=12\n');
    expect(run.stderr()).toBe(`# profile "default" (${path})\n`);
    expect(run.stdout()).not.toContain(KEY);
  });

  it('list --json prints one object; --reveal shows the key', async () => {
    const { env } = await withValues();
    const run = capture(env, { quiet: true });
    await runConfigList({ reveal: true, json: true }, run.io);
    expect(JSON.parse(run.stdout())).toEqual({ 'api-key': KEY, timeout: 12 });
    expect(run.stderr()).toBe('');
  });

  it('path prints the file path', async () => {
    const { env, path } = await home();
    const run = capture(env);
    await runConfigPath(run.io);
    expect(run.stdout()).toBe(`${path}\n`);
  });
});

describe('profiles', () => {
  it('set creates a profile; values stay in their profile', async () => {
    const { env, path } = await home();
    await runConfigSet('timeout', '5', capture(env, { profile: 'work', quiet: true }).io);
    await runConfigSet('timeout', '7', capture(env, { quiet: true }).io);
    expect(await stored(path)).toEqual({ profiles: { work: { timeout: 5 }, default: { timeout: 7 } } });

    const work = capture(env, { profile: 'work' });
    await runConfigList({ reveal: false }, work.io);
    expect(work.stdout()).toBe('timeout=5\n');
    expect(work.stderr()).toBe(`# profile "work" (${path}); other profiles: default\n`);
  });

  it('get/list/unset on a profile that does not exist: UsageError listing profiles', async () => {
    const { env } = await home();
    await runConfigSet('timeout', '5', capture(env, { quiet: true }).io);
    const io = capture(env, { profile: 'nope' }).io;
    await expect(runConfigGet('timeout', { reveal: false }, io)).rejects.toThrow(
      /profile "nope" does not exist .*; profiles: default$/,
    );
    await expect(runConfigList({ reveal: false }, io)).rejects.toThrow(/profile "nope" does not exist/);
    await expect(runConfigUnset('timeout', io)).rejects.toThrow(/profile "nope" does not exist/);
  });

  it('an empty profile name means "default"; a bad one is refused', async () => {
    const { env, path } = await home();
    await runConfigSet('retries', '1', capture({ ...env, LEADCTL_PROFILE: '' }, { quiet: true }).io);
    expect(await stored(path)).toEqual({ profiles: { default: { retries: 1 } } });
    await expect(runConfigSet('retries', '1', capture(env, { profile: '__proto__' }).io)).rejects.toThrow(
      /invalid --profile "__proto__"/,
    );
  });
});
