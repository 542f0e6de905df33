// -o as a shell user expects it: `-` is stdout, a FIFO or /dev/fd/N is written directly, a symlink is
// written through, an existing file keeps its mode and owner, the partial file is created exclusively
// under a name of its own (a planted link is never followed, concurrent runs never share one), a run
// that received nothing leaves nothing, and an interrupted run says where its rows are.
import { spawn } from 'node:child_process';
import { chmod, chown, lstat, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 250, seed: 11 });
  home = tempDir('output-home');
});
afterAll(() => sandbox.close());

const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const env = () => ({ XDG_CONFIG_HOME: home });
const exportTo = (target: string, ...options: string[]) =>
  runCli(['leads', '--all', '--csv', '-o', target, ...options, ...auth()], { env: env() });

/** What the same export prints on stdout: the bytes every file below must hold. */
async function expectedCsv(...options: string[]): Promise<string> {
  const result = await runCli(['leads', '--all', '--csv', ...options, ...auth()], { env: env() });
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

describe('-o by kind of path', () => {
  it('- is standard output, not a file named "-"', async () => {
    const dir = tempDir();
    const result = await runCli(['leads', '--all', '--csv', '-o', '-', ...auth()], { env: env(), cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(await expectedCsv());
    expect(await readdir(dir)).toEqual([]);
  });

  it('a FIFO is written directly to its reader, and stays a FIFO', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'leads.fifo');
    await execa('mkfifo', [fifo]);
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${join(dir, 'read.csv')}"`]);
    onTestFinished(() => {
      reader.kill();
    });
    const readerDone = new Promise((resolve) => reader.on('exit', resolve));
    const result = await exportTo(fifo);
    expect(result.exitCode).toBe(0);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    await readerDone;
    expect(await readFile(join(dir, 'read.csv'), 'utf8')).toBe(await expectedCsv());
    expect((await readdir(dir)).sort()).toEqual(['leads.fifo', 'read.csv']);
  });

  it('a FIFO whose reader goes away early ends quietly, like a closed stdout', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'early.fifo');
    await execa('mkfifo', [fifo]);
    // Far more than a pipe holds: the writer is still writing when the reader leaves.
    const big = await startSandbox({ leads: 3000, seed: 2 });
    onTestFinished(() => big.close());
    const reader = execa('head', ['-c', '10', fifo], { reject: false });
    const result = await runCli(
      ['leads', '--all', '--csv', '-o', fifo, '--base-url', big.url, '--api-key', big.apiKey],
      { env: env() },
    );
    await reader;
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('/dev/fd/N is the descriptor the shell opened (as for -o >(gzip > x.gz))', async () => {
    const dir = tempDir();
    const out = join(dir, 'from-fd.csv');
    const command = `node "${BIN}" leads --all --csv -o /dev/fd/3 ${auth().join(' ')} 3>"${out}"`;
    const result = await execa('sh', ['-c', command], {
      reject: false,
      env: cleanEnv(env()),
      extendEnv: false,
    });
    expect(result.stderr).not.toContain('leadctl:');
    expect(result.exitCode).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(await expectedCsv());
  });

  it('a symlink is written through: the target gets the data, the link stays a link', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await execa('mkdir', [data]);
    const target = join(data, 'leads.csv');
    await writeFile(target, 'old\n');
    const link = join(dir, 'link.csv');
    await symlink(target, link);
    const result = await exportTo(link);
    expect(result.exitCode).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe(await expectedCsv());
    expect(await readdir(data)).toEqual(['leads.csv']);
  });

  it('a dangling symlink names the file to create', async () => {
    const dir = tempDir();
    const link = join(dir, 'link.csv');
    await symlink('made-by-leadctl.csv', link);
    expect((await exportTo(link)).exitCode).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'made-by-leadctl.csv'), 'utf8')).toBe(await expectedCsv());
  });

  it.each([0o600, 0o640])('an existing %o file keeps its mode and its owner', async (mode) => {
    const dir = tempDir();
    const file = join(dir, 'private.csv');
    await writeFile(file, 'old\n');
    await chmod(file, mode);
    // Root may give files away: the owner must survive the rename too.
    if (process.getuid?.() === 0) await chown(file, 4321, 4321);
    expect((await exportTo(file)).exitCode).toBe(0);
    const info = await stat(file);
    expect(info.mode & 0o777).toBe(mode);
    if (process.getuid?.() === 0) expect([info.uid, info.gid]).toEqual([4321, 4321]);
    expect(await readFile(file, 'utf8')).toBe(await expectedCsv());
  });
});

describe('the partial file', () => {
  it('never follows a link planted at FILE.partial', async () => {
    const dir = tempDir();
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'precious\n');
    const out = join(dir, 'out.csv');
    await symlink(victim, `${out}.partial`);
    expect((await exportTo(out)).exitCode).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await lstat(out)).isFile()).toBe(true);
    expect(await readFile(out, 'utf8')).toBe(await expectedCsv());
  });

  it('two exports to one -o at once each write a whole file: the result is one of them', async () => {
    const dir = tempDir();
    const out = join(dir, 'both.out');
    // Each run's first page is held until both runs have asked for it: their files are open together.
    const waiting: Array<() => void> = [];
    let released = false;
    sandbox.onRequest(async () => {
      if (released) return;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length < 2) return;
        released = true;
        for (const release of waiting) release();
      });
    });
    onTestFinished(() => sandbox.onRequest(async () => {}));
    const [csv, json] = await Promise.all([
      runCli(['leads', '--all', '--csv', '-o', out, ...auth()], { env: env() }),
      runCli(['leads', '--all', '--format', 'json', '-o', out, ...auth()], { env: env() }),
    ]);
    sandbox.onRequest(async () => {});
    expect([csv.exitCode, json.exitCode]).toEqual([0, 0]);
    const written = await readFile(out, 'utf8');
    const whole = [
      await expectedCsv(),
      (await runCli(['leads', '--all', '--json', ...auth()], { env: env() })).stdout,
    ];
    expect(whole).toContain(written);
    expect(await readdir(dir)).toEqual(['both.out']);
  });

  it('a run that received nothing (a refused key) leaves no file at all', async () => {
    const dir = tempDir();
    const out = join(dir, 'nightly.csv');
    const result = await runCli(
      ['leads', '--all', '--csv', '-o', out, '--base-url', sandbox.url, '--api-key', 'sk_wrong_key_123456'],
      {
        env: env(),
      },
    );
    expect(result.exitCode).toBe(3);
    expect(await readdir(dir)).toEqual([]);
  });

  it('Ctrl-C mid-export keeps the rows received and says where they are', async () => {
    const dir = tempDir();
    const out = join(dir, 'leads.json');
    const child = spawnCli(
      ['leads', '--all', '--json', '--limit', '100', '--concurrency', '1', '-o', out, ...auth()],
      {
        env: env(),
        stdin: 'ignore',
      },
    );
    let seen = 0;
    sandbox.onRequest(async () => {
      seen += 1;
      if (seen !== 2) return;
      child.kill('SIGINT');
      await child;
    });
    onTestFinished(() => sandbox.onRequest(async () => {}));
    const result = await child;
    expect(result.exitCode).toBe(130);
    const names = await readdir(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^leads\.json\.[0-9a-f]{8}\.partial$/);
    const partial = join(dir, names[0] as string);
    expect(String(result.stderr)).toContain(
      `leadctl: interrupted\nthe output received so far is in ${partial}\n`,
    );
    expect(JSON.parse(await readFile(partial, 'utf8'))).toHaveLength(100);
  });
});
