// V8's code cache for undici (src/startup/code-cache.ts), through the built binary: written once by the
// first run, then loaded as it is (a cache V8 refused would be written again: these tests watch the
// file for that), never in the way of a run, whatever state the cache folder is in.
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
let configHome: string;

beforeAll(async () => {
  // Past 10,000 rows an export asks for a full garbage collection, which changes a V8 flag.
  sandbox = await startSandbox({ leads: 10_050, seed: 5 });
  configHome = await tempConfigHome();
});
afterAll(() => sandbox.close());

const freshCacheHome = () => mkdtempSync(join(tmpdir(), 'leadctl-cache-home-'));

async function leadctl(cacheHome: string, args: string[], extraEnv: Record<string, string> = {}) {
  const result = await runCli(args, {
    env: {
      XDG_CONFIG_HOME: configHome,
      XDG_CACHE_HOME: cacheHome,
      LEADCTL_BASE_URL: sandbox.url,
      LEADCTL_API_KEY: sandbox.apiKey,
      ...extraEnv,
    },
  });
  // Notices (a footer) are fine; a warning, an error or a stack trace is not.
  expect(result.stderr).not.toMatch(/leadctl:|Error|warning/i);
  expect(result.exitCode).toBe(0);
  return result;
}

/** The cache files, each with what tells a rewrite apart (a rewrite renames a new file into place). */
function cacheFiles(cacheHome: string) {
  const dir = join(cacheHome, 'leadctl');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((name) => {
    const stat = statSync(join(dir, name));
    return { name, inode: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, mode: stat.mode & 0o777 };
  });
}

const CACHE_NAME = new RegExp(
  `^undici-[0-9A-F]{8}-node-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`,
);

describe('the code cache', () => {
  it('is written by the first request-making run, private to the user', async () => {
    const home = freshCacheHome();
    const first = await leadctl(home, ['leads', '--json', '--limit', '3']);
    const files = cacheFiles(home);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(CACHE_NAME)]);
    expect(files[0]!.size).toBeGreaterThan(10_000);
    expect(files[0]!.mode).toBe(0o600);
    expect(statSync(join(home, 'leadctl')).mode & 0o777).toBe(0o700);
    // The run itself is unchanged by it.
    expect(JSON.parse(first.stdout)).toHaveLength(3);
  });

  it('is loaded, not written again, by later runs', async () => {
    const home = freshCacheHome();
    await leadctl(home, ['leads', '--json', '--limit', '3']);
    const [written] = cacheFiles(home);
    await leadctl(home, ['history', '--csv']);
    await leadctl(home, ['leads', '--json', '--limit', '3']);
    expect(cacheFiles(home)).toEqual([written]);
  });

  it('one written by a long export (which changes a V8 flag to collect garbage) fits a short run', async () => {
    const home = freshCacheHome();
    const exported = await leadctl(home, ['leads', '--all', '--csv']);
    expect(exported.stdout.split('\n')).toHaveLength(10_050 + 2); // header, rows, final newline
    const [written] = cacheFiles(home);
    await leadctl(home, ['leads', '--json', '--limit', '3']);
    await leadctl(home, ['leads', '--all', '--csv']);
    expect(cacheFiles(home)).toEqual([written]);
  });

  it('a corrupt cache is refused by V8 and replaced; the run is unaffected', async () => {
    const home = freshCacheHome();
    await leadctl(home, ['leads', '--json', '--limit', '1']);
    const [written] = cacheFiles(home);
    writeFileSync(join(home, 'leadctl', written!.name), Buffer.alloc(4096, 0x5a));
    const run = await leadctl(home, ['leads', '--json', '--limit', '2']);
    expect(JSON.parse(run.stdout)).toHaveLength(2);
    const [replaced] = cacheFiles(home);
    expect(replaced!.name).toBe(written!.name);
    expect(replaced!.size).toBeGreaterThan(10_000);
    // and the replacement is one V8 takes: the next run leaves it as it is
    await leadctl(home, ['leads', '--json', '--limit', '2']);
    expect(cacheFiles(home)).toEqual([replaced]);
  });

  it('removes the caches of other builds and Node versions, and nothing else', async () => {
    const home = freshCacheHome();
    const dir = join(home, 'leadctl');
    await leadctl(home, ['--version']); // loads no client: writes nothing
    expect(existsSync(dir)).toBe(false);
    await leadctl(home, ['leads', '--json', '--limit', '1']);
    const [current] = cacheFiles(home);
    const stale = [
      'undici-DEADBEEF-node-v20.0.0-x64.v8cache',
      `undici-0BADF00D-node-${process.version}-x64.v8cache`,
    ];
    for (const name of [...stale, 'notes.txt']) writeFileSync(join(dir, name), 'x');
    // A rewrite is what removes stale files: make this run's cache one V8 refuses.
    writeFileSync(join(dir, current!.name), 'not a cache');
    await leadctl(home, ['leads', '--json', '--limit', '1']);
    expect(
      cacheFiles(home)
        .map((f) => f.name)
        .sort(),
    ).toEqual([current!.name, 'notes.txt'].sort());
  });

  it('LEADCTL_NO_CODE_CACHE=1 neither reads nor writes one', async () => {
    const home = freshCacheHome();
    await leadctl(home, ['leads', '--json', '--limit', '1'], { LEADCTL_NO_CODE_CACHE: '1' });
    expect(existsSync(join(home, 'leadctl'))).toBe(false);
  });

  it('a cache folder that cannot be created is no error', async () => {
    const home = freshCacheHome();
    writeFileSync(join(home, 'leadctl'), 'a file where the folder would go');
    const run = await leadctl(home, ['leads', '--json', '--limit', '2']);
    expect(JSON.parse(run.stdout)).toHaveLength(2);
  });
});
