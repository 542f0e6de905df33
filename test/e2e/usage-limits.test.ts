// The plan beside the counts: `config set plan`, what each plan means under the spec's two plan
// tables; and the one warning before an export or a batch that would cross what the server says is left.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { accountServerForTest } from '../helpers/fake-server.js';
import { today, writeLedger } from '../helpers/ledger.js';
import { tempDir } from '../helpers/temp.js';

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A sandbox, and a profile whose plan is `plan` (unless undefined) with its own config and state. */
async function setUp(
  plan: string | undefined,
  spent: Parameters<typeof writeLedger>[2] = {},
  options: SandboxOptions = {},
) {
  const sandbox = await startSandbox({ leads: 300, ...options });
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
  const exportAll = ['leads', '--all', '--limit', '10', '--concurrency', '1', '--format', 'ndjson'];

  it('speaks from what the server says is left (X-RateLimit-Remaining), not from the plan tables', async () => {
    // The profile says Agency (500 a day under variant A) and this machine sent 490 today; the server
    // answers by variant B's 10,000: nothing to warn about.
    const generous = await setUp('agency', { requests: 490 }, { variant: 'b' });
    const quiet = await generous.run(exportAll);
    expect(quiet.exitCode).toBe(0);
    expect(warnings(quiet.stderr)).toEqual([]);

    // A server that allows 20 a day: 30 pages of 10 are 29 more after the first, and it says 19 are left.
    const strict = await setUp(undefined, {}, { dailyLimit: 20 });
    const r = await strict.run([...exportAll, '--max-wait', '0']);
    expect(r.exitCode).toBe(5);
    expect(warnings(r.stderr)[0]).toBe(
      'leadctl: warning: this export needs about 29 more requests but the server says 19 of 20 are left; it may stop with exit 5',
    );
  });

  it('from a server that sends no such header: the 429s it gave this machine today', async () => {
    const leads = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `l${i}`, name: `Lead ${i}` }));
    const server = await accountServerForTest(leads, []);
    const env = { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: tempDir('state') };
    const run = () => runCli([...exportAll, '--base-url', server.baseUrl, '--api-key', 'k'], { env });
    expect(warnings((await run()).stderr)).toEqual([]);
    writeLedger(env.XDG_STATE_HOME, server.baseUrl, { requests: 80, rateLimited: 2 });
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      "leadctl: warning: this export needs about 4 more requests, and the server has refused 2 of this machine's requests today with 429 (rate limited); it may stop with exit 5",
    ]);
  });

  it('a batch says so once the server has answered its first search; nothing with --quiet', async () => {
    const { run } = await setUp(undefined, {}, { dailyLimit: 5 });
    const input = join(tempDir('batch'), 'in.csv');
    const rows = Array.from({ length: 8 }, (_, i) => `plumber,City ${i}`);
    await writeFile(input, ['query,location', ...rows].join('\n'));
    const args = ['search', '--input', input, '--format', 'ndjson', '--concurrency', '1', '--max-wait', '0'];
    const r = await run(args);
    expect(r.exitCode).toBe(5);
    expect(warnings(r.stderr)[0]).toBe(
      'leadctl: warning: this batch needs about 7 more requests but the server says 4 of 5 are left; it may stop with exit 5',
    );
    expect((await run([...args, '--quiet'])).stderr).not.toContain('warning');
  });
});
