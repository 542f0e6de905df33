// The usage ledger: every request a run sends is counted once, however runs end and however many run
// at once; the file is private, checked on read and kept small; a state folder that cannot be made
// or written is one warning, and the command goes on.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runBinary, runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';
import { apiRoot, ledgerPath, modeOf, readLedger, thisMonth, today } from '../helpers/ledger.js';
import { canMount } from '../helpers/mount.js';
import { tempDir } from '../helpers/temp.js';

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sandboxWith(options: SandboxOptions = {}) {
  const sandbox = await startSandbox(options);
  open.push(sandbox);
  return sandbox;
}

/** A private config and state home per test, and the sandbox's address and key on every run. */
async function homes(sandbox: SandboxHandle) {
  const env = { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: tempDir('state') };
  const target = ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
  const run = (args: string[]) => runCli([...args, ...target], { env });
  const usage = async () => {
    const r = await run(['usage', '--json']);
    expect(r.exitCode).toBe(0);
    return JSON.parse(r.stdout);
  };
  return { env, target, run, usage, state: env.XDG_STATE_HOME };
}

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('leadctl:'));

describe('the usage ledger', () => {
  it('agrees with the requests the server received, in a private file', async () => {
    const sandbox = await sandboxWith();
    const { run, usage, state } = await homes(sandbox);
    expect((await run(['leads', '--all', '--json'])).exitCode).toBe(0);
    expect((await run(['search', 'plumber', '-l', 'Austin', '--json'])).exitCode).toBe(0);
    expect((await run(['api', 'history'])).exitCode).toBe(0);
    expect((await run(['search', 'plumber', '-l', 'Austin', '--radius', '99'])).exitCode).toBe(2);

    const report = await usage();
    const sent = sandbox.requests.length;
    // At least a page of leads, the search and the history; the refused radius sends nothing.
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(report).toMatchObject({
      profile: 'default',
      baseUrl: apiRoot(sandbox.url),
      thisMachineOnly: true,
      today: { date: today(), requests: sent, searches: 1, rateLimited: 0 },
      month: { month: thisMonth(), requests: sent, searches: 1, rateLimited: 0 },
      plan: null,
      limits: null,
    });
    expect(modeOf(ledgerPath(state))).toBe(0o600);
    expect(modeOf(`${state}/leadctl`)).toBe(0o700);
  });

  it('counts --sandbox runs as one server, whatever port each run got', async () => {
    const env = { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: tempDir('state') };
    for (let i = 0; i < 2; i += 1) {
      expect((await runCli(['leads', '--limit', '1', '--json', '--sandbox'], { env })).exitCode).toBe(0);
    }
    const r = await runCli(['usage', '--json', '--sandbox'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ baseUrl: 'sandbox', today: { requests: 2 } });
    expect((await runCli(['usage', '--sandbox'], { env })).stdout).toContain(
      'base URL    the built-in sandbox (--sandbox)\n',
    );
  });

  it('eight runs ending at the same moment lose no count', async () => {
    const sandbox = await sandboxWith();
    const { env, target, usage } = await homes(sandbox);
    const runs = 8;
    // Every run's one request is held until all have arrived, so all of them end, and write the
    // ledger, at once.
    let arrived = 0;
    let releaseAll: () => void = () => {};
    const allHere = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    sandbox.onRequest(async () => {
      arrived += 1;
      if (arrived === runs) releaseAll();
      await allHere;
    });
    const results = await Promise.all(
      Array.from({ length: runs }, () => runBinary(['leads', '--limit', '1', '--json', ...target], { env })),
    );
    sandbox.onRequest(undefined);
    expect(results.map((r) => r.exitCode)).toEqual(Array(runs).fill(0));
    expect(results.map((r) => r.stderr).join('')).not.toContain('leadctl:');
    expect((await usage()).today.requests).toBe(runs);
  });

  it('counts what a run sent before Ctrl-C', async () => {
    const sandbox = await sandboxWith({ leads: 1_000, latencyMs: 200 });
    const { env, target, usage } = await homes(sandbox);
    const child = spawnCli(['leads', '--all', '--json', '--concurrency', '1', ...target], { env });
    await new Promise<void>((resolve) =>
      sandbox.onRequest(() => {
        if (sandbox.requests.length === 3) resolve();
      }),
    );
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    expect((await usage()).today.requests).toBe(sandbox.requests.length);
  });

  it('counts 429s and the retries they cost', async () => {
    const sandbox = await sandboxWith({ dailyLimit: 2 });
    const { run, usage } = await homes(sandbox);
    expect((await run(['leads', '--limit', '1'])).exitCode).toBe(0);
    expect((await run(['leads', '--limit', '1'])).exitCode).toBe(0);
    expect((await run(['leads', '--limit', '1', '--max-wait', '0'])).exitCode).toBe(5);
    expect((await usage()).today).toMatchObject({ requests: 3, rateLimited: 1 });
  });

  it('a corrupt ledger is said once and replaced; the command still succeeds', async () => {
    const sandbox = await sandboxWith();
    const { run, usage, state, env } = await homes(sandbox);
    expect((await run(['leads', '--limit', '1'])).exitCode).toBe(0);
    writeFileSync(ledgerPath(state), '{"version": 1, "entries": [{"profile": 3}]');

    const shown = await runCli(['usage', '--base-url', sandbox.url], { env });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('0 requests');
    expect(shown.stderr).toBe(
      `leadctl: warning: usage ledger ${ledgerPath(state)} is unreadable (it is not valid JSON); counting from zero\n`,
    );

    const r = await run(['leads', '--limit', '1', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(warnings(r.stderr)).toEqual([
      `leadctl: warning: usage ledger ${ledgerPath(state)} was unreadable (it is not valid JSON); starting a new one`,
    ]);
    expect((await usage()).today.requests).toBe(1);

    // Valid JSON of another shape is refused the same way, naming where it went wrong.
    writeFileSync(ledgerPath(state), '{"version": 1, "entries": [{"profile": 3}]}');
    const again = await run(['leads', '--limit', '1', '--json']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('(it is not a usage ledger of this leadctl at entries.0.profile)');
    expect((await usage()).today.requests).toBe(1);
  });

  it('prunes months older than a year and days before last month', async () => {
    const sandbox = await sandboxWith();
    const { run, state } = await homes(sandbox);
    const old = { requests: 5, searches: 0, rateLimited: 0 };
    const stale = {
      profile: 'old',
      baseUrl: 'https://gone.example/api/v1/',
      days: { '2020-01-02': old },
      months: { '2020-01': old },
    };
    mkdirSync(`${state}/leadctl`, { recursive: true });
    writeFileSync(ledgerPath(state), JSON.stringify({ version: 1, entries: [stale] }));
    expect((await run(['leads', '--limit', '1'])).exitCode).toBe(0);
    const ledger = readLedger(state);
    expect(ledger.entries).toEqual([
      {
        profile: 'default',
        baseUrl: apiRoot(sandbox.url),
        days: { [today()]: { requests: 1, searches: 0, rateLimited: 0 } },
        months: { [thisMonth()]: { requests: 1, searches: 0, rateLimited: 0 } },
      },
    ]);
  });

  // Root ignores file modes, so "read-only" is made the ways that stop root too: a folder under /proc
  // (mkdir there fails, ENOENT) and a read-only tmpfs mounted on the ledger's folder (EROFS).
  it('an XDG_STATE_HOME where no folder can be made is one warning, and the command goes on', async () => {
    const sandbox = await sandboxWith();
    const r = await runCli(['leads', '--json', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: '/proc/leadctl-no-such/state' },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(25);
    expect(warnings(r.stderr)).toHaveLength(1);
    expect(warnings(r.stderr)[0]).toMatch(
      /^leadctl: warning: cannot create state folder \/proc\/leadctl-no-such\/state\/leadctl: .*; this run's requests are not counted in the usage ledger$/,
    );
    expect(sandbox.requests).toHaveLength(1);
  });

  it.skipIf(!canMount())('a read-only state folder is one warning, and the data is written', async () => {
    const sandbox = await sandboxWith();
    const state = tempDir('state');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', state]);
    onTestFinished(() => {
      execFileSync('umount', [state]);
    });
    const r = await runCli(['leads', '--json', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), XDG_STATE_HOME: state },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(25);
    expect(warnings(r.stderr)).toEqual([
      `leadctl: warning: cannot create state folder ${state}/leadctl: EROFS; this run's requests are not counted in the usage ledger`,
    ]);
    expect(sandbox.requests).toHaveLength(1);
  });
});
