// A batch spends live searches: input it cannot read faithfully and a state file or partial output
// that does not add up are refused with exit 2 before a single request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const INPUT = ['query,location', 'plumber,Dallas', 'roofer,Austin', 'dentist,Waco', 'baker,Reno'].join('\n');
const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox() {
  const s = await startSandbox({ seed: 4 });
  sandboxes.push(s);
  return s;
}
const run = (s: SandboxHandle, args: string[]) =>
  runCli(['search', ...args, '--base-url', s.url, '--api-key', s.apiKey], {
    env: { XDG_CONFIG_HOME: tempDir('batch-home') },
  });
const searches = (s: SandboxHandle) => s.requests.filter((r) => r.path === '/api/v1/search');

describe('batch input', () => {
  it('refuses a Latin-1 file, naming the first line that is not UTF-8, and searches nothing', async () => {
    const s = await sandbox();
    const input = join(tempDir(), 'latin1.csv');
    await writeFile(input, Buffer.from('query,location\nplumber,Dallas\nbaker,Montr\xe9al\n', 'latin1'));
    const result = await run(s, ['--input', input, '--csv']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`leadctl: ${input} is not UTF-8 text (line 3); nothing was searched`);
    expect(searches(s)).toHaveLength(0);
  });

  it('refuses a CSV row shorter than the header, naming its line, before any request', async () => {
    const result = await runCli(['search', '--input', '-', '--csv'], {
      input: 'query,location,radius\nplumber,Dallas,5\nroofer,Austin\n',
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('standard input has 1 bad row; nothing was searched\n');
    expect(result.stderr).toContain('  line 3: expected 3 fields like the header, found 2\n');
  });

  it('says "no such file" for a missing --input file', async () => {
    const s = await sandbox();
    const missing = join(tempDir(), 'none.csv');
    const result = await run(s, ['--input', missing]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`leadctl: cannot read ${missing}: no such file`);
  });
});

describe('--resume refuses a state or partial file that does not add up', () => {
  /** A batch stopped by --max-requests after 2 of 4 searches, with its state and partial file. */
  async function stopped() {
    const dir = tempDir();
    const input = join(dir, 'searches.csv');
    await writeFile(input, INPUT);
    const out = join(dir, 'out.csv');
    const first = await run(await sandbox(), ['--input', input, '-o', out, '--csv', '--max-requests', '2']);
    expect(first.exitCode).toBe(5);
    const stateFile = `${out}.state`;
    const partialName = (await readdir(dir)).find((name) => name.endsWith('.partial')) as string;
    return { input, out, stateFile, partial: join(dir, partialName) };
  }

  /** What each case changes in the state file: one field, as a hand edit or a bug would. */
  const tampered: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a count of the wrong type', { done: '2' }, /: done: expected a number/],
    ['a negative count', { results: -5 }, /: results: expected 0 or more/],
    ['done beyond the input', { done: 9 }, /done \(9\) is more than total \(4\)/],
    ['counts that do not add up', { searched: 1 }, /do not add up to done/],
    ['place ids of the wrong type', { seen: [1, 2] }, /: seen\[0\]: expected text/],
    ['a partial file elsewhere', { partial: '../../etc/passwd' }, /partial: is not in the expected form/],
    ['more bytes than the partial holds', { bytes: 1_000_000 }, /shorter than the/],
  ];

  it.each(tampered)('%s: exit 2, nothing sent', async (_name, change, message) => {
    const { input, out, stateFile } = await stopped();
    const state = JSON.parse(await readFile(stateFile, 'utf8'));
    await writeFile(stateFile, JSON.stringify({ ...state, ...change }));
    const s = await sandbox();
    const result = await run(s, ['--input', input, '-o', out, '--csv', '--resume']);
    expect(result.stderr).toMatch(message);
    expect(result.exitCode).toBe(2);
    expect(s.requests).toHaveLength(0);
  });

  it('a partial file edited since the stop (same length): exit 2, nothing sent', async () => {
    const { input, out, partial } = await stopped();
    const text = await readFile(partial, 'utf8');
    await writeFile(partial, text.replace('plumber', 'PLUMBER'));
    const s = await sandbox();
    const result = await run(s, ['--input', input, '-o', out, '--csv', '--resume']);
    expect(result.stderr).toContain(`cannot resume: ${partial} does not hold what the stopped run wrote`);
    expect(result.exitCode).toBe(2);
    expect(s.requests).toHaveLength(0);
  });

  it('a state file that is not JSON: exit 2, nothing sent', async () => {
    const { input, out, stateFile } = await stopped();
    await writeFile(stateFile, '{"version": 2, "done": ');
    const s = await sandbox();
    const result = await run(s, ['--input', input, '-o', out, '--csv', '--resume']);
    expect(result.stderr).toContain(
      `leadctl: ${stateFile} is not a batch state file leadctl can resume: it is not valid JSON`,
    );
    expect(result.exitCode).toBe(2);
    expect(s.requests).toHaveLength(0);
  });
});
