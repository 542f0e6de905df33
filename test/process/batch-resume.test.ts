// A batch stopped by a 429, by --max-requests or by Ctrl-C, then --resume: the finished file must be
// byte-for-byte what one uninterrupted run writes, and no finished search may be sent again.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const INPUT = [
  'query,location,radius',
  'plumber,Dallas,',
  'plumber,Austin,5',
  'roofer,Dallas,',
  'plumber,dallas,', // a repeat of line 2
  'electrician,"Fort Worth, TX",',
  'plumber,Dallas,25',
  'dentist,Waco,',
].join('\n');
const UNIQUE = 6;
const SEED = 5;

let home: string;
const sandboxes: SandboxHandle[] = [];

beforeAll(async () => {
  home = await tempConfigHome();
});
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandboxWith(options: SandboxOptions = {}) {
  const sandbox = await startSandbox({ seed: SEED, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

async function workspace() {
  const dir = tempDir('resume');
  const input = join(dir, 'searches.csv');
  await writeFile(input, INPUT);
  return { dir, input };
}

const auth = (s: SandboxHandle) => ['--base-url', s.url, '--api-key', s.apiKey];
const env = () => ({ XDG_CONFIG_HOME: home });
const run = (s: SandboxHandle, args: string[]) => runCli(['search', ...args, ...auth(s)], { env: env() });
const searchBodies = (s: SandboxHandle) =>
  s.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/search').map((r) => r.body);

/** What one uninterrupted run writes with these options, from a sandbox of its own. */
async function uninterrupted(input: string, dir: string, options: string[]): Promise<Buffer> {
  const file = join(dir, 'reference.out');
  const result = await run(await sandboxWith(), ['--input', input, '-o', file, ...options]);
  expect(result.exitCode).toBe(0);
  return readFile(file);
}

describe.each([
  ['csv', ['--csv']],
  ['json with --unique', ['--json', '--unique']],
])('a 429 mid-batch, then --resume (%s)', (_name, options) => {
  it('stops cleanly with exit 5, keeps the partial file and .state, and resumes to the uninterrupted file', async () => {
    const { dir, input } = await workspace();
    const out = join(dir, 'leads.out');
    // Two live searches this month, then 429 with a retryAfter weeks away: beyond any --max-wait.
    const limited = await sandboxWith({ liveSearchLimit: 2 });
    // One at a time: with two in flight, the server may answer the later search first and refuse
    // the earlier with the 429; the later one then ran but cannot be written (it would leave a
    // gap), and is named as sent without an answer, so the counts below would differ.
    const stopped = await run(limited, ['--input', input, '-o', out, '--concurrency', '1', ...options]);
    expect(stopped.exitCode).toBe(5);
    // The third search was answered 429: not run, so not counted as sent.
    expect(stopped.stderr).toMatch(/^2 sent, 0 failed, 1 skipped as duplicate, 4 not run; \d+ results$/m);
    expect(stopped.stderr).toContain(`Progress is saved in ${out}.state; continue with:`);
    expect(existsSync(out)).toBe(false);
    const state = JSON.parse(await readFile(`${out}.state`, 'utf8'));
    expect(state.done).toBe(2);
    expect(existsSync(join(dir, state.partial))).toBe(true);
    expect(stopped.stderr).toContain(`the output received so far is in ${join(dir, state.partial)}`);

    const fresh = await sandboxWith();
    const resumed = await run(fresh, ['--input', input, '-o', out, '--resume', ...options]);
    expect(resumed.stderr).toContain('Resuming: 2 of 6 searches were done before.');
    expect(resumed.exitCode).toBe(0);
    // Only the searches not finished before are sent again.
    expect(searchBodies(fresh)).toEqual([
      { query: 'roofer', location: 'Dallas' },
      { query: 'electrician', location: 'Fort Worth, TX' },
      { query: 'plumber', location: 'Dallas', radius: 25 },
      { query: 'dentist', location: 'Waco' },
    ]);
    expect(resumed.stderr).toMatch(/^6 sent, 0 failed, 1 skipped as duplicate; \d+ results$/m);
    expect(existsSync(join(dir, state.partial))).toBe(false);
    expect(existsSync(`${out}.state`)).toBe(false);
    expect((await readFile(out)).equals(await uninterrupted(input, dir, options))).toBe(true);
  });
});

describe('--max-requests, then --resume', () => {
  it('spends exactly the cap, then the resumed run finishes the same file', async () => {
    const { dir, input } = await workspace();
    const out = join(dir, 'leads.json');
    const first = await sandboxWith();
    const capped = await run(first, ['--input', input, '-o', out, '--json', '--max-requests', '4']);
    expect(capped.exitCode).toBe(5);
    expect(searchBodies(first)).toHaveLength(4);
    const resumed = await run(first, ['--input', input, '-o', out, '--json', '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(searchBodies(first)).toHaveLength(UNIQUE);
    expect((await readFile(out)).equals(await uninterrupted(input, dir, ['--json']))).toBe(true);
  });
});

describe('Ctrl-C, then --resume', () => {
  /** Ctrl-C while the third search is at the server: its answer is held until the CLI has exited. */
  async function interruptAtThird(input: string, out: string) {
    const first = await sandboxWith();
    const child = spawnCli(
      ['search', '--input', input, '-o', out, '--csv', '--concurrency', '1', ...auth(first)],
      { env: env(), stdin: 'ignore' },
    );
    first.onRequest(async () => {
      if (first.requests.length !== 3) return;
      child.kill('SIGINT');
      await child;
    });
    return child;
  }

  it('exits 130 naming the search in flight; --resume --resend-unknown completes the same file', async () => {
    const { dir, input } = await workspace();
    const out = join(dir, 'leads.csv');
    const interrupted = await interruptAtThird(input, out);
    expect(interrupted.exitCode).toBe(130);
    const stderr = String(interrupted.stderr);
    expect(stderr).toContain('leadctl: interrupted');
    // Three searches went out; the third never answered: it may have run.
    expect(stderr).toMatch(
      /^3 sent \(1 without an answer: it may have run\), 0 failed, 1 skipped as duplicate, 3 not run; \d+ results$/m,
    );
    expect(stderr).toContain(
      'leadctl: warning: 1 search was sent without an answer and may have run (spending live searches): line 4 (roofer, Dallas); --resume will not send them again unless you add --resend-unknown',
    );
    expect(existsSync(out)).toBe(false);
    const state = JSON.parse(await readFile(`${out}.state`, 'utf8'));
    expect(state).toMatchObject({ done: 2, sent: 3 });
    expect(state.unknown).toEqual([{ index: 2, line: 4, query: 'roofer', location: 'Dallas' }]);
    expect(existsSync(join(dir, state.partial))).toBe(true);
    expect(stderr).toContain(`the output received so far is in ${join(dir, state.partial)}`);

    const fresh = await sandboxWith();
    const resumed = await run(fresh, ['--input', input, '-o', out, '--csv', '--resume', '--resend-unknown']);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).toContain('Sending again, as --resend-unknown asks: line 4 (roofer, Dallas).');
    expect(searchBodies(fresh)).toHaveLength(UNIQUE - 2);
    expect((await readFile(out)).equals(await uninterrupted(input, dir, ['--csv']))).toBe(true);
  });

  it('a plain --resume does not send the unanswered search again: it says so and exits 6', async () => {
    const { dir, input } = await workspace();
    const out = join(dir, 'leads.csv');
    expect((await interruptAtThird(input, out)).exitCode).toBe(130);

    const fresh = await sandboxWith();
    const resumed = await run(fresh, ['--input', input, '-o', out, '--csv', '--resume']);
    expect(resumed.exitCode).toBe(6);
    expect(resumed.stderr).toContain(
      'leadctl: warning: 1 search was sent by the stopped run without an answer and may have run: line 4 (roofer, Dallas); they are not sent again (stop now and add --resend-unknown to send them)',
    );
    expect(resumed.stderr).toContain(
      'leadctl: line 4 (roofer, Dallas): sent before the stop without an answer; not sent again\n',
    );
    expect(resumed.stderr).toMatch(
      /^6 sent \(1 without an answer: it may have run\), 0 failed, 1 skipped as duplicate; \d+ results$/m,
    );
    expect(resumed.stderr).toContain(
      'leadctl: 1 search was sent without an answer and not sent again: their results are not in the output (listed above)',
    );
    // Only the three never sent go out; the file has every other search's rows, none for line 4.
    expect(searchBodies(fresh)).toEqual([
      { query: 'electrician', location: 'Fort Worth, TX' },
      { query: 'plumber', location: 'Dallas', radius: 25 },
      { query: 'dentist', location: 'Waco' },
    ]);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain('roofer');
    expect(text).toContain('electrician');
    expect(existsSync(`${out}.state`)).toBe(false);
  });
});

describe('--resume refuses what it cannot continue (exit 2, nothing sent)', () => {
  async function stoppedBatch() {
    const { dir, input } = await workspace();
    const out = join(dir, 'leads.csv');
    const first = await sandboxWith();
    expect((await run(first, ['--input', input, '-o', out, '--csv', '--max-requests', '2'])).exitCode).toBe(
      5,
    );
    return { dir, input, out, sandbox: await sandboxWith() };
  }

  it('a changed input', async () => {
    const { dir, out, sandbox } = await stoppedBatch();
    const changed = join(dir, 'changed.csv');
    await writeFile(changed, `${INPUT}\nbaker,Austin,`);
    const result = await run(sandbox, ['--input', changed, '-o', out, '--csv', '--resume']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('leadctl: the input changed since the stopped run');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('other output options, a missing state file, and a new run over a stopped one', async () => {
    const { dir, input, out, sandbox } = await stoppedBatch();
    const otherFormat = await run(sandbox, ['--input', input, '-o', out, '--json', '--resume']);
    expect(otherFormat.exitCode).toBe(2);
    expect(otherFormat.stderr).toContain('the stopped run had --format csv');
    const overStopped = await run(sandbox, ['--input', input, '-o', out, '--csv']);
    expect(overStopped.exitCode).toBe(2);
    expect(overStopped.stderr).toContain('holds a stopped batch');
    const missing = await run(sandbox, ['--input', input, '-o', join(dir, 'other.csv'), '--csv', '--resume']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nothing to resume');
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('--resume with --where', () => {
  it('repeats --where in the command it prints, finishes the same file, and refuses another --where', async () => {
    const { dir, input } = await workspace();
    const options = ['--csv', '--where', 'rating>=4', '--concurrency', '1'];
    const expected = await uninterrupted(input, dir, options);
    const out = join(dir, 'results.csv');
    const sandbox = await sandboxWith();
    const stopped = await run(sandbox, ['--input', input, '-o', out, ...options, '--max-requests', '2']);
    expect(stopped.exitCode).toBe(5);
    expect(stopped.stderr).toContain("--format csv --where 'rating>=4'");

    const other = await run(sandbox, [
      '--input',
      input,
      '-o',
      out,
      '--csv',
      '--resume',
      '--where',
      'rating>=3',
    ]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain("leadctl: the output options differ from the stopped run's\n");
    expect(other.stderr).toContain("--where 'rating>=4'");

    const resumed = await run(sandbox, ['--input', input, '-o', out, ...options, '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(await readFile(out)).toEqual(expected);
  });
});
