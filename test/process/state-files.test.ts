// Checkpoint and batch state files: one writer at a time (a second run exits 2 before any request,
// naming the holder, and leaves the first run's files alone), a lock of a dead run taken over and a
// live one never, written through symlinks, and a full disk between the output and the checkpoint
// that loses nothing and duplicates nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { type CliResult, runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';
import {
  bentServerForTest,
  honest,
  json,
  type Lead,
  leadsList,
  reset,
  startFakeServer,
} from '../helpers/fake-server.js';
import { canMount, fillDisk } from '../helpers/mount.js';
import { tempDir } from '../helpers/temp.js';

let home: string;
beforeAll(async () => {
  home = await tempConfigHome();
});
const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox() {
  const s = await startSandbox({ seed: 3 });
  sandboxes.push(s);
  return s;
}

const auth = (s: SandboxHandle) => ['--base-url', s.url, '--api-key', s.apiKey];
const HOLDER =
  /^leadctl: (.+) is in use by another leadctl run \(pid (\d+), started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); nothing was sent$/m;

/** The ids of a csv written with the default columns (id first). */
async function csvIds(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split('\r\n').filter(Boolean);
  return lines.slice(1).map((line) => line.split(',')[0] as string);
}

describe('two runs on one checkpoint', () => {
  it('the second exits 2 at once naming the first, which writes exactly what one run writes', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'cp.json');
    const out = join(dir, 'all.csv');
    const s = await sandbox();
    const args = ['leads', '--checkpoint', ckpt, '-o', out, '--append', '--csv', ...auth(s)];
    const first = spawnCli(args, { env: { XDG_CONFIG_HOME: home }, stdin: 'ignore' });
    let second: CliResult | undefined;
    // The first run's first page is held at the server until the second run has ended.
    s.onRequest(async () => {
      if (second || s.requests.length !== 1) return;
      second = await runCli(args, { env: { XDG_CONFIG_HOME: home } });
    });
    const firstResult = await first;
    expect(firstResult.exitCode).toBe(0);
    expect(second?.exitCode).toBe(2);
    const [, name, pid] = HOLDER.exec(second?.stderr ?? '') ?? [];
    expect(name).toBe(ckpt);
    expect(Number(pid)).toBe(first.pid);
    expect(second?.stdout).toBe('');
    // Only the first run's requests: an --all export of the sandbox's leads, nothing more.
    const ids = await csvIds(out);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    const pages = Math.ceil(ids.length / 100);
    expect(s.requests.length).toBeLessThanOrEqual(pages + 1);
    expect(JSON.parse(await readFile(ckpt, 'utf8')).kind).toBe('leadctl-checkpoint');
    expect((await readdir(dir)).sort()).toEqual(['all.csv', 'cp.json']);
  });

  it('a lock left by a dead run is taken over; a live holder is never, however old its lock', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'cp.json');
    const s = await sandbox();
    const run = () =>
      runCli(['leads', '--checkpoint', ckpt, '--csv', ...auth(s)], { env: { XDG_CONFIG_HOME: home } });
    const lock = `${ckpt}.lock`;
    const owner = (pid: number) =>
      JSON.stringify({ pid, host: hostname(), startedAt: '2026-01-02T03:04:05.000Z', token: 'x' });
    // A process that has ended: its pid is free (and not reused within this test, in practice).
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    await mkdir(lock);
    await writeFile(join(lock, 'owner.json'), owner(dead));
    const takenOver = await run();
    expect(takenOver.exitCode).toBe(0);
    expect(existsSync(lock)).toBe(false);

    await mkdir(lock);
    await writeFile(join(lock, 'owner.json'), owner(process.pid));
    execFileSync('touch', ['-d', '2020-01-01', lock]);
    const requests = s.requests.length;
    const refused = await run();
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `leadctl: ${ckpt} is in use by another leadctl run (pid ${process.pid}, started 2026-01-02 03:04:05 UTC); nothing was sent\n`,
    );
    expect(refused.stderr).toContain(`if it is not leadctl, remove ${lock}`);
    expect(s.requests.length).toBe(requests);
    expect(JSON.parse(await readFile(join(lock, 'owner.json'), 'utf8')).pid).toBe(process.pid);
  });

  it('is written through a symlink: the link stays, its target moves', async () => {
    const dir = tempDir();
    const real = join(dir, 'real-cp.json');
    const ckpt = join(dir, 'cp.json');
    await symlink(real, ckpt);
    const s = await sandbox();
    const r = await runCli(['leads', '--checkpoint', ckpt, '--csv', ...auth(s)], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(0);
    expect((await lstat(ckpt)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8')).kind).toBe('leadctl-checkpoint');
    expect((await readdir(dir)).sort()).toEqual(['cp.json', 'real-cp.json']);
  });
});

describe('two batches on one -o file', () => {
  it('the second exits 2 at once naming the first; the state and output are one run’s', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\ndentist,Waco\n');
    const out = join(dir, 'res.csv');
    const s = await sandbox();
    const args = ['search', '--input', input, '-o', out, '--csv', '--concurrency', '1', ...auth(s)];
    const first = spawnCli(args, { env: { XDG_CONFIG_HOME: home }, stdin: 'ignore' });
    let second: CliResult | undefined;
    s.onRequest(async () => {
      if (second || s.requests.length !== 1) return;
      second = await runCli([...args, '--resume'], { env: { XDG_CONFIG_HOME: home } });
    });
    const firstResult = await first;
    expect(firstResult.exitCode).toBe(0);
    expect(second?.exitCode).toBe(2);
    const [, name, pid] = HOLDER.exec(second?.stderr ?? '') ?? [];
    expect(name).toBe(`${out}.state`);
    expect(Number(pid)).toBe(first.pid);
    expect(s.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
    expect(String(firstResult.stderr)).toMatch(/^3 sent, 0 failed, 0 skipped as duplicate; \d+ results$/m);
    // Finished: no state, no partial file, no lock; the output holds the three searches once.
    expect((await readdir(dir)).sort()).toEqual(['in.csv', 'res.csv']);
    const rows = (await readFile(out, 'utf8')).split('\r\n').filter(Boolean);
    expect(rows[0]?.startsWith('search_query,search_location,')).toBe(true);
  });

  it('a symlinked FILE.state is written through, the link kept', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');
    const out = join(dir, 'res.csv');
    const real = join(dir, 'elsewhere.state');
    await symlink(real, `${out}.state`);
    const s = await sandbox();
    const capped = await runCli(
      [
        'search',
        '--input',
        input,
        '-o',
        out,
        '--csv',
        '--max-requests',
        '1',
        '--concurrency',
        '1',
        ...auth(s),
      ],
      { env: { XDG_CONFIG_HOME: home } },
    );
    expect(capped.exitCode).toBe(5);
    expect((await lstat(`${out}.state`)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8'))).toMatchObject({ done: 1, sent: 1, unknown: [] });
    const resumed = await runCli(['search', '--input', input, '-o', out, '--csv', '--resume', ...auth(s)], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(resumed.exitCode).toBe(0);
    expect(s.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });
});

describe('a batch whose search the server reset after reading it', () => {
  it('names it as sent without an answer; --resume does not send it again', async () => {
    const server = await startFakeServer();
    onTestFinished(() => server.close());
    const answer = json(200, { query: 'q', location: 'l', results: [{ place_id: 'p1', name: 'A' }] });
    server.route('POST', '/api/v1/search', reset, answer);
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');
    const out = join(dir, 'res.csv');
    const args = ['search', '--input', input, '-o', out, '--csv', '--concurrency', '1', '--retries', '0'];
    const target = ['--base-url', server.baseUrl, '--api-key', 'k'];
    const stopped = await runCli([...args, ...target], { env: { XDG_CONFIG_HOME: home } });
    expect(stopped.exitCode).toBe(6);
    expect(stopped.stderr).toMatch(
      /^1 sent \(1 without an answer: it may have run\), 0 failed, 0 skipped as duplicate, 1 not run; 0 results$/m,
    );
    expect(stopped.stderr).toContain('may have run (spending live searches): line 2 (plumber, Austin);');
    const state = JSON.parse(await readFile(`${out}.state`, 'utf8'));
    expect(state).toMatchObject({ done: 0, sent: 1 });
    expect(state.unknown).toEqual([{ index: 0, line: 2, query: 'plumber', location: 'Austin' }]);

    const resumed = await runCli([...args, '--resume', ...target], { env: { XDG_CONFIG_HOME: home } });
    expect(resumed.exitCode).toBe(6);
    const posts = server.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body).query);
    expect(posts).toEqual(['plumber', 'roofer']);
    const text = await readFile(out, 'utf8');
    expect(text).toContain('roofer');
    expect(text).not.toContain('plumber');
  });
});

describe.skipIf(!canMount())('a full disk', () => {
  it('before the run: exit 1, nothing sent', async () => {
    const small = tempDir('small');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]);
    onTestFinished(() => {
      execFileSync('umount', [small]);
    });
    fillDisk(join(small, 'filler'));
    const s = await sandbox();
    const r = await runCli(['leads', '--checkpoint', join(small, 'cp.json'), '--csv', ...auth(s)], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `leadctl: cannot write checkpoint ${join(small, 'cp.json')}: no space left on device\n`,
    );
    expect(s.requests).toHaveLength(0);
    expect(await readdir(small)).toEqual(['filler']);
  });

  it('between the output and the checkpoint: exit 1 with the appended file and the checkpoint as they were; the rerun writes each lead once', async () => {
    const dir = tempDir();
    const small = join(dir, 'small');
    await mkdir(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', small]);
    onTestFinished(() => {
      execFileSync('umount', [small]);
    });
    const ckpt = join(small, 'cp.json');
    const out = join(dir, 'all.csv');
    const before = 'id,name,saved_at\r\nold-1,old,2026-01-01T00:00:00.000Z\r\n';
    await writeFile(out, before);
    const list: Lead[] = leadsList(150);
    const filler = join(small, 'filler');
    // The disk fills while the export runs: after the lock was taken, before the checkpoint is written.
    let filled = false;
    const server = await bentServerForTest(list, (request, all) => {
      if (request.page === 1 && !filled) {
        filled = true;
        fillDisk(filler);
      }
      return honest(request, all);
    });
    const args = [
      'leads',
      '--checkpoint',
      ckpt,
      '-o',
      out,
      '--append',
      '--csv',
      '--fields',
      'id,name,saved_at',
    ];
    const run = () =>
      runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k'], { env: { XDG_CONFIG_HOME: home } });

    const full = await run();
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toContain(`leadctl: cannot write checkpoint ${ckpt}: no space left on device\n`);
    expect(await readFile(out, 'utf8')).toBe(before);
    expect((await readdir(small)).sort()).toEqual(['filler']);

    await rm(filler);
    const again = await run();
    expect(again.exitCode).toBe(0);
    const ids = await csvIds(out);
    expect(ids).toEqual(['old-1', ...list.map((lead) => String(lead.id))]);
    expect(JSON.parse(await readFile(ckpt, 'utf8')).kind).toBe('leadctl-checkpoint');
  });
});
