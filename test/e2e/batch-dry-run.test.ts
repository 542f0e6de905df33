// `search --input FILE --dry-run`: validates and dedupes as a real run, says what it would send (and
// what a --resume would skip) beside what the ledger says is left of the plan, sends nothing.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { writeLedger } from '../helpers/ledger.js';
import { tempDir } from '../helpers/temp.js';

const INPUT = [
  'query,location',
  'plumber,Dallas',
  'roofer,Austin',
  'PLUMBER , dallas', // a repeat of line 2
  'dentist,Waco',
].join('\n');

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function setup() {
  const sandbox = await startSandbox({ seed: 2 });
  open.push(sandbox);
  const dir = tempDir('dry');
  const input = join(dir, 'in.csv');
  await writeFile(input, INPUT);
  const env = { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: tempDir('state') };
  const run = (args: string[]) =>
    runCli(['search', '--input', input, ...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env,
    });
  return { sandbox, dir, input, env, run };
}

describe('search --input --dry-run', () => {
  it('counts the unique searches against what the ledger says is left, and sends nothing', async () => {
    const { sandbox, input, env, run } = await setup();
    writeLedger(env.XDG_STATE_HOME, sandbox.url, { requests: 498, searches: 299 });
    const set = await runCli(['config', 'set', 'plan', 'agency'], { env });
    expect(set.exitCode).toBe(0);
    const r = await run(['--dry-run', '--quiet']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'Dry run: nothing is sent.',
        `${input}: 3 searches, 1 skipped as duplicate.`,
        'It would send 3 searches: 3 requests at least (retries add more), each of which may be a live search.',
        `Usage ledger (this machine, profile default, ${sandbox.url}/api/v1/): 498 requests today, 299 searches this month.`,
        'Agency plan, variant A: 2 of 500 daily requests left (this batch needs more), at least 1 of 300 monthly live searches left (this batch may need more).',
        'Agency plan, variant B: 9,502 of 10,000 daily requests left, monthly live searches not published.',
        '',
      ].join('\n'),
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it('says what a --resume of a stopped batch would skip, and checks the state as --resume does', async () => {
    const { sandbox, dir, run } = await setup();
    const out = join(dir, 'res.csv');
    const capped = await run(['-o', out, '--csv', '--max-requests', '1', '--concurrency', '1']);
    expect(capped.exitCode).toBe(5);
    const sent = sandbox.requests.length;
    const files = await readdir(dir);

    const plain = await run(['-o', out, '--csv', '--dry-run']);
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toContain(`${out}.state: a --resume skips 1 of them and sends 2.\n`);
    expect(plain.stderr).toContain(
      'Without --resume this -o file is refused while its .state file is there.\n',
    );
    expect(plain.stderr).toContain('It would send 3 searches:');
    expect(plain.stderr).toContain('Plan: not set, so nothing to compare with');

    const resume = await run(['-o', out, '--csv', '--resume', '--dry-run']);
    expect(resume.exitCode).toBe(0);
    expect(resume.stderr).toContain('It would send 2 searches:');

    const otherShape = await run(['-o', out, '--json', '--resume', '--dry-run']);
    expect(otherShape.exitCode).toBe(2);
    expect(otherShape.stderr).toContain("leadctl: the output options differ from the stopped run's\n");

    // Nothing sent, nothing written: the stopped batch is as it was.
    expect(sandbox.requests).toHaveLength(sent);
    expect(await readdir(dir)).toEqual(files);
  });

  it('refuses an invalid input with exit 2, as a real run does', async () => {
    const { sandbox, input, run } = await setup();
    await writeFile(input, 'query,location\nplumber,\n');
    const r = await run(['--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`leadctl: ${input} has 1 bad row; nothing was searched\n`);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('is a batch option: refused without --input', async () => {
    const r = await runCli(['search', 'plumber', '-l', 'Austin', '--dry-run'], {
      env: { XDG_CONFIG_HOME: await tempConfigHome() },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('leadctl: --dry-run only applies to a batch (--input)\n');
  });
});
