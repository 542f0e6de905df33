// `leadctl sync` into SQLite (Node 22.13+) and PostgreSQL (every Node), the same scenarios on both, as
// an agency meets them: two runs for one account (the second exits 2 naming the holder), two accounts
// at once, a first sync killed half way and run again, a stop that keeps its rows, deletions and
// reappearances at a stated request cost, rating changes, a newer schema and a table emptied by hand.
// The built binary runs where the process is the point; the tables are read back by a reader of their
// own (the sqlite3 shell, a separate pg connection).
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { ENGINES, type TestDatabase } from '../helpers/databases.js';
import { tempDir } from '../helpers/temp.js';

async function sandboxWith(options: SandboxOptions): Promise<SandboxHandle> {
  const sandbox = await startSandbox(options);
  onTestFinished(() => sandbox.close());
  return sandbox;
}

const server = (sandbox: SandboxHandle) => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const leadPages = (sandbox: SandboxHandle, from = 0) =>
  sandbox.requests
    .slice(from)
    .filter((r) => r.path === '/api/v1/leads')
    .map((r) => Number(r.query.page));

/** All ids the server lists now, newest first. */
function serverIds(sandbox: SandboxHandle): Promise<string[]> {
  return (async () => {
    const result = await runCli(['leads', '--all', '--json', ...server(sandbox)]);
    return (JSON.parse(result.stdout) as { id: string }[]).map((lead) => lead.id);
  })();
}

const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe.each(ENGINES)('leadctl sync into $name', (engine) => {
  const sync = (db: TestDatabase, sandbox: SandboxHandle, extra: string[] = []) =>
    runCli(['sync', '--db', db.db, ...server(sandbox), ...extra], { env: db.env });

  it.skipIf(engine.skip)(
    `a second run for one account exits 2 at once naming the holder; two accounts sync at once with exact counts${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    async () => {
      const db = await engine.fresh();
      const a = await sandboxWith({ leads: 250, history: 7, seed: 1 });
      const b = await sandboxWith({ leads: 180, history: 4, seed: 2 });
      const home = tempDir('home');
      mkdirSync(join(home, 'leadctl'));
      const profiles = {
        'client-a': { 'base-url': a.url, 'api-key': a.apiKey },
        'client-b': { 'base-url': b.url, 'api-key': b.apiKey },
      };
      writeFileSync(join(home, 'leadctl', 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
      // Each server holds its first request until both runs are at a server: they overlap for sure.
      let arrived = 0;
      let bothThere: () => void = () => {};
      const overlap = new Promise<void>((resolve) => {
        bothThere = resolve;
      });
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      for (const sandbox of [a, b]) {
        let first = true;
        sandbox.onRequest(async () => {
          if (!first) return;
          first = false;
          if (++arrived === 2) bothThere();
          await held;
        });
      }
      const env = { ...db.env, XDG_CONFIG_HOME: home };
      const runA = spawnCli(['--profile', 'client-a', 'sync', '--db', db.db], { env, stdin: 'ignore' });
      const runB = spawnCli(['--profile', 'client-b', 'sync', '--db', db.db], { env, stdin: 'ignore' });
      // A run that ends before its first request would leave `overlap` waiting: its stderr fails the test.
      const ended = (run: typeof runA) => run.then((done) => `ended first: ${done.stderr}`);
      expect(await Promise.race([overlap.then(() => 'both at a server'), ended(runA), ended(runB)])).toBe(
        'both at a server',
      );
      const sent = a.requests.length;
      const third = await runCli(['--profile', 'client-a', 'sync', '--db', db.db], { env });
      expect(third.exitCode).toBe(2);
      expect(third.stderr).toMatch(
        new RegExp(
          `^leadctl: account client-a in .* is being synced by leadctl sync \\(pid ${runA.pid} on ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); one writer per account$`,
          'm',
        ),
      );
      expect(a.requests.length).toBe(sent);
      release();
      const [doneA, doneB] = await Promise.all([runA, runB]);
      expect([doneA.exitCode, doneB.exitCode]).toEqual([0, 0]);
      expect(doneA.stderr).toContain('Synced: leads 250 new, 0 changed; history 7 new, 0 changed');
      expect(doneB.stderr).toContain('Synced: leads 180 new, 0 changed; history 4 new, 0 changed');
      expect(
        await db.rows('select account, count(*) as n from leads group by account order by account'),
      ).toEqual([
        { account: 'client-a', n: engine.name === 'postgres' ? '250' : 250 },
        { account: 'client-b', n: engine.name === 'postgres' ? '180' : 180 },
      ]);
      expect(await db.number("select count(*) from history where account = 'client-b'")).toBe(4);
    },
  );

  it.skipIf(engine.skip)(
    'a first sync killed with SIGKILL keeps its pages; the rerun fetches only the rest, no row twice',
    async () => {
      const db = await engine.fresh();
      const sandbox = await sandboxWith({ leads: 1_000, history: 3 });
      const child = spawnCli(['sync', '--db', db.db, ...server(sandbox)], { env: db.env, stdin: 'ignore' });
      // Killed once 300 rows are committed, while later pages are at the server.
      let killing = false;
      sandbox.onRequest(async (request) => {
        if (killing || request.path !== '/api/v1/leads' || Number(request.query.page) < 6) return;
        killing = true;
        await until(async () => (await db.number('select count(*) from leads')) >= 300);
        child.kill('SIGKILL');
        await child;
      });
      await child;
      sandbox.onRequest(undefined);
      const kept = await db.number('select count(*) from leads');
      expect(kept).toBeGreaterThanOrEqual(300);
      expect(kept).toBeLessThan(1_000);
      expect(await db.number('select count(*) from sync_runs')).toBe(0);

      const sent = sandbox.requests.length;
      const rerun = await runCli(['sync', '--db', db.db, ...server(sandbox)], { env: db.env });
      expect(rerun.exitCode).toBe(0);
      expect(rerun.stderr).toContain(`leads ${1_000 - kept} new, 0 changed`);
      const pages = leadPages(sandbox, sent);
      const ids = await serverIds(sandbox);
      const stored = await db.rows("select id from leads where deleted_at is null and account = 'default'");
      expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
      // Page 1 (what is new), the page where the kept rows end, and the pages after it: nothing before.
      const edge = Math.floor((kept - 1) / 100) + 1;
      expect(pages[0]).toBe(1);
      expect(pages.slice(1)).toEqual(Array.from({ length: 10 - edge + 1 }, (_, at) => edge + at));
    },
  );

  it.skipIf(engine.skip)('Ctrl-C says what was kept; the rows stay and the rerun completes', async () => {
    const db = await engine.fresh();
    const sandbox = await sandboxWith({ leads: 600, history: 3 });
    const child = spawnCli(['sync', '--db', db.db, ...server(sandbox)], { env: db.env, stdin: 'ignore' });
    let stopping = false;
    sandbox.onRequest(async (request) => {
      if (stopping || request.path !== '/api/v1/leads' || Number(request.query.page) < 4) return;
      stopping = true;
      await until(async () => (await db.number('select count(*) from leads')) >= 200);
      child.kill('SIGINT');
      await child;
    });
    const stopped = await child;
    sandbox.onRequest(undefined);
    expect(stopped.exitCode).toBe(130);
    const kept = await db.number('select count(*) from leads');
    expect(String(stopped.stderr)).toContain(
      `Kept what was committed: leads ${kept} new, 0 changed; history 0 new, 0 changed. The next sync goes on from there.`,
    );
    expect(await db.rows('select outcome from sync_runs')).toEqual([{ outcome: 'stopped' }]);
    const rerun = await sync(db, sandbox);
    expect(rerun.exitCode).toBe(0);
    expect(await db.number('select count(*) from leads where deleted_at is null')).toBe(600);
  });

  it.skipIf(engine.skip)(
    'a lead deleted on the server gets deleted_at, cheaply; one that reappears comes back; --full reads every page',
    async () => {
      const db = await engine.fresh();
      const sandbox = await sandboxWith({ leads: 3_000, history: 2 });
      expect((await sync(db, sandbox)).exitCode).toBe(0);
      const gone = sandbox.deleteLeads([17, 2_222]);
      const sent = sandbox.requests.length;
      const second = await sync(db, sandbox);
      expect(second.exitCode).toBe(0);
      expect(second.stderr).toContain('Synced: leads 0 new, 0 changed, 2 deleted; history 0 new, 0 changed');
      const deleted = await db.rows('select id from leads where deleted_at is not null order by id');
      expect(deleted.map((row) => row.id)).toEqual([...gone].sort());
      // docs/sync.md: k deletions among N leads cost about k·log2(N/100) requests, not the 31 of a full pass.
      expect(leadPages(sandbox, sent).length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(30)));
      expect(await db.number('select count(*) from leads where deleted_at is null')).toBe(2_998);

      sandbox.restoreLeads();
      const third = await sync(db, sandbox);
      expect(third.stderr).toContain('Synced: leads 0 new, 0 changed, 2 back; history');
      expect(await db.number('select count(*) from leads where deleted_at is not null')).toBe(0);

      const beforeFull = sandbox.requests.length;
      const full = await sync(db, sandbox, ['--full']);
      expect(full.exitCode).toBe(0);
      expect(leadPages(sandbox, beforeFull).length).toBeGreaterThanOrEqual(30);
    },
  );

  it.skipIf(engine.skip)(
    'a changed rating or review count keeps the old values in lead_changes',
    async () => {
      const db = await engine.fresh();
      const sandbox = await sandboxWith({ leads: 400, history: 2 });
      expect((await sync(db, sandbox)).exitCode).toBe(0);
      const [before] = await db.rows(
        `select id, rating, review_count from leads order by list_rank desc limit 1 offset 250`,
      );
      const id = sandbox.changeLead(250, { rating: 1.5, review_count: 9_999 });
      expect(before?.id).toBe(id);
      const run = await sync(db, sandbox, ['--full']);
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toContain('leads 0 new, 1 changed');
      const changes = await db.rows(
        'select id, rating_before, review_count_before, rating, review_count from lead_changes',
      );
      const same = (value: unknown) => (value === null ? null : String(value));
      expect(
        changes.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, same(v)]))),
      ).toEqual([
        {
          id,
          rating_before: same(before?.rating),
          review_count_before: same(before?.review_count),
          rating: '1.5',
          review_count: '9999',
        },
      ]);
    },
  );

  it.skipIf(engine.skip)(
    'a database from a newer leadctl, and a table emptied by hand, are refused with the fix before any request',
    async () => {
      const db = await engine.fresh();
      const sandbox = await sandboxWith({ leads: 120, history: 2 });
      expect((await sync(db, sandbox)).exitCode).toBe(0);
      await db.rows('delete from leads where id in (select id from leads order by id limit 20)');
      const sent = sandbox.requests.length;
      const damaged = await sync(db, sandbox);
      expect(damaged.exitCode).toBe(2);
      expect(damaged.stderr).toMatch(
        /leads of account default holds 100 rows where the last sync left 120; it was changed outside leadctl\n.*leadctl sync --full/,
      );
      expect(sandbox.requests.length).toBe(sent);
      const full = await sync(db, sandbox, ['--full']);
      expect(full.exitCode).toBe(0);
      expect(full.stderr).toContain('leads 20 new, 0 changed');
      expect(await db.number('select count(*) from leads')).toBe(120);

      await db.rows('update schema_version set version = 99');
      const beforeNewer = sandbox.requests.length;
      const newer = await sync(db, sandbox);
      expect(newer.exitCode).toBe(2);
      expect(newer.stderr).toMatch(
        /was written by a newer leadctl \(schema 99; this one knows 2\)\n.*upgrade leadctl/,
      );
      expect(sandbox.requests.length).toBe(beforeNewer);
    },
  );
});
