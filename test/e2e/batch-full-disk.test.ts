// A batch whose disk fills while a search is at the server: the search was answered (200), so the
// answer is kept in FILE.state before its rows are written, and --resume writes it without sending
// it again; the finished file is byte for byte what one uninterrupted run writes. The full disk is a
// real one: a small tmpfs (mounted here as root; elsewhere this file skips, as state-files.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { canMount, fillDisk } from '../helpers/mount.js';
import { tempDir } from '../helpers/temp.js';

const INPUT = 'query,location\nplumber,Dallas\nroofer,Austin\ndentist,Waco\n';
const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox() {
  const s = await startSandbox({ seed: 11 });
  sandboxes.push(s);
  return s;
}

const searched = (s: SandboxHandle) =>
  s.requests.filter((r) => r.path === '/api/v1/search').map((r) => (r.body as { query: string }).query);

describe.skipIf(!canMount())('a full disk under a batch', () => {
  it.each([1, 2])(
    'keeps the answers it could not write; --resume writes them without searching again (--concurrency %i)',
    async (concurrency) => {
      const dir = tempDir('full');
      const small = join(dir, 'small');
      await mkdir(small);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small]);
      onTestFinished(() => {
        execFileSync('umount', [small]);
      });
      const input = join(dir, 'searches.csv');
      await writeFile(input, INPUT);
      const out = join(small, 'leads.csv');
      const filler = join(small, 'filler');
      const home = await tempConfigHome();
      const batch = (s: SandboxHandle, file: string, ...more: string[]) => {
        const auth = ['--base-url', s.url, '--api-key', s.apiKey];
        const args = ['--input', input, '--csv', '-o', file, '--concurrency', String(concurrency)];
        return runCli(['search', ...args, ...more, ...auth], { env: { XDG_CONFIG_HOME: home } });
      };

      const s = await sandbox();
      // The disk fills while the second search is at the server, before its answer comes back.
      s.onRequest((request) => {
        if (request.path === '/api/v1/search' && searched(s).length === 2) fillDisk(filler);
      });
      const full = await batch(s, out);
      expect(full.exitCode).toBe(1);
      // What stopped the run: the state write that needed the space set aside, or (with two in
      // flight) the output of the first search, written after the disk filled.
      const stopped = `leadctl: no space left on device: the batch state ${out}.state was saved in the space set aside for it; the run stops here\n`;
      if (concurrency === 1) expect(full.stderr).toContain(stopped);
      else
        expect(full.stderr).toMatch(
          /^leadctl: (no space left on device: the batch state|cannot write .*: no space left on device)/m,
        );
      expect(full.stderr).toMatch(
        /answered but not written: .* keeps the answers, and --resume writes them without searching again\.\n/,
      );
      expect(full.stderr).not.toContain('without an answer');
      const state = JSON.parse(await readFile(`${out}.state`, 'utf8'));
      // Every search sent was answered, and is either written or kept (with --concurrency 2 the
      // third may have gone out beside the second).
      expect(state).toMatchObject({ sent: searched(s).length, unknown: [] });
      expect(state.done + state.answers.length).toBe(searched(s).length);

      await rm(filler);
      const resumed = await batch(s, out, '--resume');
      expect(resumed.exitCode).toBe(0);
      expect(resumed.stderr).toContain(
        `Resuming: ${state.done} of 3 searches were done before, ${state.answers.length} more answered (written now, not sent again).`,
      );
      expect(resumed.stderr).toContain('3 sent, 0 failed, 0 skipped as duplicate;');
      // Each search went out once, over both runs.
      expect(searched(s).sort()).toEqual(['dentist', 'plumber', 'roofer']);
      expect((await readdir(small)).sort()).toEqual(['leads.csv']);

      const reference = join(dir, 'reference.csv');
      const whole = await batch(await sandbox(), reference);
      expect(whole.exitCode).toBe(0);
      expect(await readFile(out)).toEqual(await readFile(reference));
    },
  );
});
