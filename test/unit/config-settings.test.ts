import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { type GlobalFlags, resolveSettings } from '../../src/config/settings.js';
import { tempDir } from '../helpers/temp.js';

/** The error a promise rejects with; fails the test when it resolves. */
const KEY_FLAG = 'flag-key-0000000000000001';
const KEY_ENV = 'env-key-00000000000000002';
const KEY_FILE = 'file-key-0000000000000003';

async function configHome(contents?: unknown, mode = 0o600) {
  const root = tempDir('settings');
  const path = join(root, 'leadctl', 'config.json');
  if (contents !== undefined) {
    await mkdir(join(root, 'leadctl'), { mode: 0o700 });
    const text = typeof contents === 'string' ? contents : JSON.stringify(contents);
    await writeFile(path, text);
    await chmod(path, mode); // explicit: writeFile's mode is filtered by the umask
  }
  return { env: { XDG_CONFIG_HOME: root } as NodeJS.ProcessEnv, path };
}

const stored = {
  profiles: {
    default: {
      'api-key': KEY_FILE,
      'base-url': 'https://file.example',
      timeout: 11,
      retries: 7,
      'max-wait': 70,
    },
  },
};

describe('resolveSettings precedence: flag > env > profile > default', () => {
  interface Row {
    field: 'apiKey' | 'baseUrl' | 'timeoutSec' | 'retries' | 'maxWaitSec';
    flag?: Partial<GlobalFlags>;
    env?: NodeJS.ProcessEnv;
    fromFile: boolean;
    expected: unknown;
    source?: string;
  }
  const rows: Row[] = [
    {
      field: 'apiKey',
      flag: { apiKey: KEY_FLAG },
      env: { LEADCTL_API_KEY: KEY_ENV },
      fromFile: true,
      expected: KEY_FLAG,
      source: 'flag',
    },
    { field: 'apiKey', env: { LEADCTL_API_KEY: KEY_ENV }, fromFile: true, expected: KEY_ENV, source: 'env' },
    { field: 'apiKey', fromFile: true, expected: KEY_FILE, source: 'config' },
    { field: 'apiKey', fromFile: false, expected: undefined },
    {
      field: 'baseUrl',
      flag: { baseUrl: 'http://flag.test' },
      env: { LEADCTL_BASE_URL: 'http://env.test' },
      fromFile: true,
      expected: 'http://flag.test',
      source: 'flag',
    },
    {
      field: 'baseUrl',
      env: { LEADCTL_BASE_URL: 'http://env.test' },
      fromFile: true,
      expected: 'http://env.test',
      source: 'env',
    },
    { field: 'baseUrl', fromFile: true, expected: 'https://file.example', source: 'config' },
    { field: 'baseUrl', fromFile: false, expected: undefined },
    {
      field: 'timeoutSec',
      flag: { timeout: '1.5' },
      env: { LEADCTL_TIMEOUT: '9' },
      fromFile: true,
      expected: 1.5,
    },
    { field: 'timeoutSec', env: { LEADCTL_TIMEOUT: '9' }, fromFile: true, expected: 9 },
    { field: 'timeoutSec', fromFile: true, expected: 11 },
    { field: 'timeoutSec', fromFile: false, expected: 30 },
    { field: 'retries', flag: { retries: '0' }, fromFile: true, expected: 0 },
    { field: 'retries', fromFile: true, expected: 7 },
    { field: 'retries', fromFile: false, expected: 3 },
    { field: 'maxWaitSec', flag: { maxWait: '0' }, fromFile: true, expected: 0 },
    { field: 'maxWaitSec', fromFile: true, expected: 70 },
    { field: 'maxWaitSec', fromFile: false, expected: 60 },
  ];
  it.each(rows)('$field from flag=$flag env=$env file=$fromFile -> $expected', async (row) => {
    const { env } = await configHome(row.fromFile ? stored : undefined);
    const settings = await resolveSettings(row.flag ?? {}, { ...env, ...row.env });
    expect(settings[row.field]).toBe(row.expected);
    if (row.field === 'apiKey') expect(settings.apiKeySource).toBe(row.source);
    if (row.field === 'baseUrl') expect(settings.baseUrlSource).toBe(row.source);
  });

  it('trims keys and treats an empty environment variable as unset', async () => {
    const { env } = await configHome(stored);
    const fromFlag = await resolveSettings({ apiKey: `  ${KEY_FLAG}\n` }, env);
    expect(fromFlag.apiKey).toBe(KEY_FLAG);
    const emptyEnv = await resolveSettings({}, { ...env, LEADCTL_API_KEY: '  ', LEADCTL_TIMEOUT: '' });
    expect(emptyEnv).toMatchObject({ apiKey: KEY_FILE, apiKeySource: 'config', timeoutSec: 11 });
  });

  it('reports the profile, the stored format and the config path', async () => {
    const { env, path } = await configHome({ profiles: { default: { format: 'csv' } } });
    const settings = await resolveSettings({}, env);
    expect(settings).toMatchObject({ profile: 'default', format: 'csv', configPath: path, warnings: [] });
  });
});

describe('resolveSettings profiles', () => {
  const twoProfiles = {
    profiles: { default: { 'api-key': KEY_FILE }, work: { 'api-key': KEY_ENV, retries: 1 } },
  };

  it('selects by --profile over LEADCTL_PROFILE, and does not mix profiles', async () => {
    const { env } = await configHome(twoProfiles);
    const viaEnv = await resolveSettings({}, { ...env, LEADCTL_PROFILE: 'work' });
    expect(viaEnv).toMatchObject({ profile: 'work', apiKey: KEY_ENV, retries: 1 });
    const viaFlag = await resolveSettings({ profile: 'default' }, { ...env, LEADCTL_PROFILE: 'work' });
    expect(viaFlag).toMatchObject({ profile: 'default', apiKey: KEY_FILE, retries: 3 });
  });

  it('refuses a profile that does not exist, listing the ones that do', async () => {
    const { env, path } = await configHome(twoProfiles);
    const resolving = resolveSettings({ profile: 'staging' }, env);
    await expect(resolving).rejects.toBeInstanceOf(UsageError);
    await expect(resolving).rejects.toMatchObject({
      message: `profile "staging" does not exist in ${path}; profiles: default, work`,
      exitCode: 2,
    });
  });

  it('accepts a missing "default" profile and a missing file', async () => {
    const { env } = await configHome();
    await expect(resolveSettings({}, env)).resolves.toMatchObject({ profile: 'default', timeoutSec: 30 });
  });

  it('refuses an invalid profile name', async () => {
    const { env } = await configHome();
    await expect(resolveSettings({ profile: '../etc' }, env)).rejects.toThrow(/invalid --profile "..\/etc"/);
  });
});

describe('resolveSettings validation names where the bad value came from', () => {
  it.each([
    [{ timeout: 'abc' }, {}, 'invalid --timeout "abc": expected a number of seconds > 0'],
    [{ timeout: '0' }, {}, 'invalid --timeout "0": expected a number of seconds > 0'],
    [{}, { LEADCTL_TIMEOUT: '-1' }, 'invalid LEADCTL_TIMEOUT "-1": expected a number of seconds > 0'],
    [{ retries: '11' }, {}, 'invalid --retries "11": expected a whole number from 0 to 10'],
    [{ retries: '1.5' }, {}, 'invalid --retries "1.5": expected a whole number from 0 to 10'],
    [{ maxWait: '-3' }, {}, 'invalid --max-wait "-3": expected a number of seconds >= 0'],
    [
      { baseUrl: 'ftp://x.test' },
      {},
      'invalid --base-url "ftp://x.test": expected an http:// or https:// URL',
    ],
    [
      {},
      { LEADCTL_BASE_URL: 'example.com' },
      'invalid LEADCTL_BASE_URL "example.com": expected an http:// or https:// URL',
    ],
  ])('%j %j -> %s', async (flags, extraEnv, message) => {
    const { env } = await configHome();
    await expect(resolveSettings(flags, { ...env, ...extraEnv })).rejects.toThrow(new UsageError(message));
  });

  it('names the profile and file for a bad stored value', async () => {
    const { env, path } = await configHome({ profiles: { default: { timeout: -1 } } });
    await expect(resolveSettings({}, env)).rejects.toThrow(
      `invalid timeout "-1" in profile "default" (${path}): expected a number of seconds > 0`,
    );
  });

  it('never echoes an API key, even an invalid one', async () => {
    const { env } = await configHome({ profiles: { default: { 'api-key': 12345678901234 } } });
    await expect(resolveSettings({ apiKey: 'secret with spaces' }, env)).rejects.toThrow(
      /^invalid --api-key: expected printable ASCII characters without spaces$/,
    );
    const stored = resolveSettings({}, env);
    await expect(stored).rejects.toThrow(/^invalid api-key in profile "default" .*: expected a string$/);
    await expect(stored).rejects.not.toThrow(/12345678901234/);
  });

  it('checks a stored value only when no flag or variable overrides it', async () => {
    const { env } = await configHome({ profiles: { default: { timeout: 'soon' } } });
    await expect(resolveSettings({ timeout: '5' }, env)).resolves.toMatchObject({ timeoutSec: 5 });
    await expect(resolveSettings({}, env)).rejects.toThrow(/invalid timeout "soon"/);
  });
});

describe('resolveSettings warnings', () => {
  it('warns when the file is readable by group or others', async () => {
    const { env, path } = await configHome(stored, 0o644);
    const { warnings } = await resolveSettings({}, env);
    expect(warnings).toEqual([
      `config file ${path} is readable by group or others (mode 644); run: chmod 600 ${path}`,
    ]);
  });

  it('warns about top-level keys outside "profiles" (a hand-written profile in the wrong place)', async () => {
    const { env, path } = await configHome({ default: { 'api-key': KEY_FILE } });
    const { warnings, apiKey } = await resolveSettings({}, env);
    expect(apiKey).toBeUndefined();
    expect(warnings).toEqual([
      `unknown top-level key "default" in config file ${path} is ignored; profiles go under "profiles"`,
    ]);
  });

  it('warns about unknown keys in the selected profile', async () => {
    const { env } = await configHome({ profiles: { default: { apikey: KEY_FILE } } });
    const { warnings, apiKey } = await resolveSettings({}, env);
    expect(apiKey).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^unknown key "apikey" in profile "default" .* is ignored/);
  });
});
