// The plan beside the counts: `config set plan`, what each plan means under the spec's two plan
// tables, and the one warning before an export or a batch that would cross what is left.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { today, writeLedger } from '../helpers/ledger.js';
import { tempDir } from '../helpers/temp.js';

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A sandbox, and a profile whose plan is `plan` (unless undefined) with its own config and state. */
async function setUp(plan: string | undefined, spent: Parameters<typeof writeLedger>[2] = {}) {
  const sandbox = await startSandbox({ leads: 300 });
  open.push(sandbox);
  const env = { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: tempDir('state') };
  if (plan) expect((await runCli(['config', 'set', 'plan', plan], { env })).exitCode).toBe(0);
  writeLedger(env.XDG_STATE_HOME, sandbox.url, spent);
  const run = (args: string[]) =>
    runCli([...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], { env });
  return { sandbox, env, run };
}

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('leadctl:'));

describe('leadctl usage beside the plan', () => {
  it('shows what the Agency plan allows under both plan tables, and that it counts this machine', async () => {
    const { run } = await setUp('agency', { requests: 42, searches: 17 });
    const r = await run(['usage']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines).toContain(`today       ${today()} UTC: 42 requests, 17 searches, 0 rate-limited (429)`);
    expect(lines).toContain('plan        Agency (config set plan); the spec publishes two plan tables:');
    expect(lines).toContain(
      '            variant A: 500 requests a day (458 left today), 300 live searches a month (at least 283 left)',
    );
    expect(lines).toContain(
      '            variant B: 10,000 requests a day (9,958 left today); its search quota is not published',
    );
    expect(lines).toContain(
      'counted     on this machine only: other machines, other tools and the web app spend the same allowance',
    );
  });

  it('Free has no API access under variant A; --json gives the same numbers to scripts', async () => {
    const { run } = await setUp('free', { requests: 7 });
    const human = await run(['usage']);
    expect(human.stdout).toContain('            variant A: no API access on this plan\n');
    expect(human.stdout).toContain('            variant B: 100 requests a day (93 left today); its search');
    const json = JSON.parse((await run(['usage', '--json'])).stdout);
    expect(json.plan).toBe('free');
    expect(json.limits).toEqual({
      a: { apiAccess: false, dailyRequests: null, monthlyLiveSearches: null },
      b: { apiAccess: true, dailyRequests: 100, monthlyLiveSearches: null },
    });
  });

  it('without a plan it says how to set one; a plan that does not exist is refused', async () => {
    const { run, env } = await setUp(undefined);
    expect((await run(['usage'])).stdout).toContain(
      'plan        not set; to see the limits: leadctl config set plan free|pro|agency\n',
    );
    const refused = await runCli(['config', 'set', 'plan', 'enterprise'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('leadctl: invalid plan "enterprise": expected one of free, pro, agency');
  });
});

describe('the warning before spending', () => {
  it('an --all export that would cross what is left today says so once, then runs', async () => {
    // Free: 100 a day; 90 spent. 300 leads at 10 a page are 30 pages: 29 more after the first.
    const { run } = await setUp('free', { requests: 90 });
    const r = await run(['leads', '--all', '--limit', '10', '--concurrency', '1', '--format', 'ndjson']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(300);
    expect(warnings(r.stderr)).toEqual([
      "leadctl: warning: this export needs about 29 more requests but only 9 are left today (Free plan: 100 requests a day under the spec's variant B; this machine sent 91 today); it may stop at the limit with exit 5",
    ]);
  });

  it('says nothing when the export fits, without a plan, or with --quiet', async () => {
    const fits = await setUp('free', { requests: 50 });
    const args = ['leads', '--all', '--limit', '10', '--format', 'ndjson'];
    expect(warnings((await fits.run(args)).stderr)).toEqual([]);
    const noPlan = await setUp(undefined, { requests: 99 });
    expect(warnings((await noPlan.run(args)).stderr)).toEqual([]);
    const quiet = await setUp('free', { requests: 90 });
    const r = await quiet.run([...args, '--quiet']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('a batch whose searches would cross the month’s live searches says so before the first', async () => {
    // Agency under variant A: 300 live searches a month; 295 searches already this month.
    const { run, sandbox } = await setUp('agency', { requests: 300, searches: 295 });
    const input = join(tempDir('batch'), 'in.csv');
    const rows = Array.from({ length: 8 }, (_, i) => `plumber,City ${i}`);
    await writeFile(input, ['query,location', ...rows].join('\n'));
    const r = await run(['search', '--input', input, '--format', 'ndjson']);
    expect(r.exitCode).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      "leadctl: warning: this batch's 8 searches may cross the 5 live searches left this month (Agency plan: 300 a month under the spec's variant A; this machine ran 295 searches this month, cached ones included); it may stop at the limit with exit 5",
    ]);
    expect(sandbox.requests).toHaveLength(8);
  });
});
