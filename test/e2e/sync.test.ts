// `leadctl sync` into a SQLite file, read back with the sqlite3 shell as a user would. Against the
// sandbox (and an account server of our own where exact values or a re-saved lead are needed): the
// first sync holds meta.total rows, k new leads cost at most k/100 + 2 requests, nothing new one
// request per list, a stop keeps the pages committed, a leadctl 1 file is migrated in place, a damaged
// file is refused and a full disk is exit 1. Needs node:sqlite (Node 22.13+) and the sqlite3 shell;
// what SQLite and PostgreSQL share is in sync-engines.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { registrableDomain } from '../../src/text/domain.js';
import { runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';
import { accountServerForTest } from '../helpers/fake-server.js';
import { canMount } from '../helpers/mount.js';
import {
  ENGINE_SKIP_REASON,
  HAS_NODE_SQLITE,
  HAS_SQLITE3_SHELL,
  SHELL_SKIP_REASON,
  sqliteNumber,
  sqliteRows,
} from '../helpers/sqlite-shell.js';
import { tempDir } from '../helpers/temp.js';

let home: string;
beforeAll(async () => {
  home = await tempConfigHome();
});

async function sandboxWith(options: SandboxOptions): Promise<SandboxHandle> {
  const sandbox = await startSandbox(options);
  onTestFinished(() => sandbox.close());
  return sandbox;
}

function sync(db: string, server: { url: string; key: string }, extra: string[] = []) {
  return runCli(['sync', '--db', db, '--base-url', server.url, '--api-key', server.key, ...extra], {
    env: { XDG_CONFIG_HOME: home },
  });
}

const of = (sandbox: SandboxHandle) => ({ url: sandbox.url, key: sandbox.apiKey });
const listRequests = (sandbox: SandboxHandle, from = 0) =>
  sandbox.requests.slice(from).filter((r) => r.path === '/api/v1/leads' || r.path === '/api/v1/history');

const ready = HAS_NODE_SQLITE && HAS_SQLITE3_SHELL;
const skipped = HAS_NODE_SQLITE ? SHELL_SKIP_REASON : ENGINE_SKIP_REASON;

describe.skipIf(!ready)(`leadctl sync${ready ? '' : ` (skipped: ${skipped})`}`, () => {
  it('first sync holds meta.total rows; k new leads cost at most k/100 + 2 requests; nothing new one per list', async () => {
    const sandbox = await sandboxWith({ leads: 250, history: 30 });
    const db = join(tempDir(), 'leads.db');

    const first = await sync(db, of(sandbox));
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe('');
    // Node 22's ExperimentalWarning about SQLite is not the user's business: stderr is the run's.
    expect(first.stderr).toBe(
      `Database: ${db} (account default)\nSynced: leads 250 new, 0 changed; history 30 new, 0 changed (4 requests).\n`,
    );
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(250);
    expect(await sqliteNumber(db, 'select count(*) from history')).toBe(30);
    expect((await stat(db)).mode & 0o777).toBe(0o600);

    const k = 130;
    sandbox.addLeads(k);
    const before = sandbox.requests.length;
    const second = await sync(db, of(sandbox));
    expect(second.exitCode).toBe(0);
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(250 + k);
    expect(listRequests(sandbox, before).length).toBeLessThanOrEqual(Math.floor(k / 100) + 2);
    expect(second.stderr).toContain(`leads ${k} new, 0 changed; history 0 new, 0 changed`);

    const third = before + listRequests(sandbox, before).length;
    const idle = await sync(db, of(sandbox));
    expect(idle.exitCode).toBe(0);
    // One request per list: leads and history.
    expect(listRequests(sandbox, third).map((r) => r.path)).toEqual(['/api/v1/leads', '/api/v1/history']);

    const runs = await sqliteRows(db, 'select requests, leads_added, leads_total from sync_runs order by id');
    expect(runs).toEqual([
      { requests: 4, leads_added: 250, leads_total: 250 },
      { requests: listRequests(sandbox, before).length - 2, leads_added: k, leads_total: 250 + k },
      { requests: 2, leads_added: 0, leads_total: 250 + k },
    ]);
  });

  it('reads back with sqlite3 field for field as leads --all --json and history --all --json print them', async () => {
    const sandbox = await sandboxWith({ leads: 120, history: 12, hostileData: true, seed: 3 });
    const db = join(tempDir(), 'leads.db');
    expect((await sync(db, of(sandbox))).exitCode).toBe(0);
    for (const [resource, table] of [
      ['leads', 'leads'],
      ['history', 'history'],
    ] as const) {
      const exported = await runCli(
        [resource, '--all', '--json', '--base-url', sandbox.url, '--api-key', sandbox.apiKey],
        { env: { XDG_CONFIG_HOME: home } },
      );
      const items = JSON.parse(exported.stdout) as Record<string, unknown>[];
      const rows = await sqliteRows(db, `select * from ${table}`);
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(rows.length).toBe(items.length);
      for (const item of items) {
        const row = byId.get(item.id) as Record<string, unknown>;
        for (const [field, value] of Object.entries(item))
          expect([field, row[field]]).toEqual([field, value]);
        expect(JSON.parse(row.json as string)).toEqual(item);
      }
    }
  });

  it('keeps numbers exactly: SQLite numbers where exact, else the digits sent as text; a re-saved lead is updated, not duplicated', async () => {
    const lead = (id: string, name: string, rest = '') =>
      `{"id":"${id}","name":"${name}","rating":4.5,"review_count":12${rest},"saved_at":"2026-11-20T00:00:00Z"}`;
    const account = await accountServerForTest(
      [
        lead('a', 'Alpha', ',"extra":{"z":1,"a":2}'),
        `{"id":12345678901234567890,"name":"Big","rating":4.50,"review_count":12345678901234567890}`,
        lead('c', 'Gamma'),
      ],
      [
        '{"id":"h1","query":"plumber","location":"Austin","results_count":3,"created_at":"2026-11-20T00:00:00Z"}',
      ],
    );
    const server = { url: account.baseUrl, key: 'k' };
    const db = join(tempDir(), 'leads.db');
    expect((await sync(db, server)).exitCode).toBe(0);
    const exact = await sqliteRows(
      db,
      "select id, rating, typeof(rating) rt, review_count, typeof(review_count) ct, json from leads where name = 'Big'",
    );
    expect(exact).toEqual([
      {
        id: '12345678901234567890',
        rating: '4.50',
        rt: 'text',
        review_count: '12345678901234567890',
        ct: 'text',
        json: '{"id":12345678901234567890,"name":"Big","rating":4.50,"review_count":12345678901234567890}',
      },
    ]);
    expect(
      await sqliteRows(db, "select typeof(rating) rt, typeof(review_count) ct from leads where id = 'c'"),
    ).toEqual([{ rt: 'real', ct: 'integer' }]);

    // Gamma is saved again: the server moves it to the front with a new name.
    account.leads = [lead('c', 'Gamma Plumbing'), ...account.leads.slice(0, 2)];
    const again = await sync(db, server);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('leads 0 new, 1 changed');
    expect(await sqliteRows(db, "select id, name from leads where id = 'c'")).toEqual([
      { id: 'c', name: 'Gamma Plumbing' },
    ]);
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(3);
  });

  it('Ctrl-C mid-sync keeps the pages committed and removes its lock; the rerun completes it', async () => {
    const sandbox = await sandboxWith({ leads: 150, history: 5 });
    const db = join(tempDir(), 'leads.db');
    expect((await sync(db, of(sandbox))).exitCode).toBe(0);

    sandbox.addLeads(250);
    const sent = sandbox.requests.length;
    const child = spawnCli(['sync', '--db', db, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home },
      stdin: 'ignore',
    });
    // Ctrl-C while page 2 is at the server: page 1's 100 new leads are committed.
    sandbox.onRequest(async () => {
      if (sandbox.requests.length !== sent + 2) return;
      child.kill('SIGINT');
      await child;
    });
    const interrupted = await child;
    sandbox.onRequest(undefined);
    expect(interrupted.exitCode).toBe(130);
    expect(existsSync(`${db}.default.lock`)).toBe(false);
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(250);
    expect(await sqliteRows(db, 'select outcome, leads_added from sync_runs order by id')).toEqual([
      { outcome: 'complete', leads_added: 150 },
      { outcome: 'stopped', leads_added: 100 },
    ]);

    const rerun = await sync(db, of(sandbox));
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stderr).toContain('leads 150 new, 0 changed');
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(400);
  });

  it('migrates a leadctl 1 file in place: rows, searches and the head kept, the next run incremental', async () => {
    const db = join(tempDir(), 'leads.db');
    await execa('sqlite3', [db], {
      input: readFileSync(join(import.meta.dirname, '../fixtures/leadctl-1.sql')),
    });
    const before = await sqliteRows(db, 'select id, first_seen_at from leads order by id');
    // The server the file was written from (same seed, same ids), with 5 leads saved since.
    const sandbox = await sandboxWith({ leads: 30, seed: 1 });
    sandbox.addLeads(5);
    const r = await sync(db, of(sandbox));
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Synced: leads 5 new, 0 changed; history 0 new, 0 changed (2 requests).');
    const old = `select id, first_seen_at from leads where id in (${before.map((row) => `'${row.id}'`).join(', ')}) order by id`;
    expect(await sqliteRows(db, old)).toEqual(before);
    expect(
      await sqliteRows(db, 'select account, count(*) n, count(domain) d from leads group by account'),
    ).toEqual([{ account: 'default', n: 35, d: expect.any(Number) }]);
    for (const row of await sqliteRows(db, 'select website, domain from leads')) {
      expect(row.domain).toBe(registrableDomain(row.website) ?? null);
    }
    expect(await sqliteRows(db, 'select account, count(*) n from search_results group by account')).toEqual([
      { account: 'default', n: 19 },
    ]);
    expect(await sqliteNumber(db, 'select version from schema_version')).toBe(2);
    // leadctl 1 reads user_version: it refuses the file now instead of writing the old shape into it.
    expect(await sqliteNumber(db, 'pragma user_version')).toBe(2);
    // The file's search answers --cache as before.
    const cached = await runCli(
      [
        'search',
        'plumber',
        '-l',
        'Austin',
        '--db',
        db,
        '--cache',
        '30000d',
        '--json',
        '--base-url',
        sandbox.url,
        '--api-key',
        sandbox.apiKey,
      ],
      { env: { XDG_CONFIG_HOME: home } },
    );
    expect(cached.stderr).toContain('no request sent');
    expect((JSON.parse(cached.stdout) as unknown[]).length).toBe(19);
  });

  it('refuses a damaged file (quick_check) before any request, with the fix', async () => {
    const sandbox = await sandboxWith({ leads: 400, history: 3 });
    const db = join(tempDir(), 'leads.db');
    expect((await sync(db, of(sandbox))).exitCode).toBe(0);
    await execa('sqlite3', [db, 'pragma wal_checkpoint(truncate)']);
    // Garbage over the middle of the file: index and table pages no longer agree.
    const file = await open(db, 'r+');
    const { size } = await file.stat();
    await file.write(Buffer.alloc(8192, 0x5a), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    await file.close();
    const sent = sandbox.requests.length;
    const r = await sync(db, of(sandbox));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^leadctl: .*leads\.db is damaged \(SQLite .+\); nothing was written to it\n.*\.recover/m,
    );
    expect(sandbox.requests.length).toBe(sent);
  });

  it.skipIf(!canMount())('a full disk is exit 1; the pages committed before it stay', async () => {
    const dir = tempDir('full');
    await execa('mount', ['-t', 'tmpfs', '-o', 'size=400k', 'tmpfs', dir]);
    onTestFinished(() => execa('umount', [dir]).then(() => undefined));
    const sandbox = await sandboxWith({ leads: 3_000, history: 3 });
    const db = join(dir, 'leads.db');
    const r = await sync(db, of(sandbox));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^leadctl: cannot write database .*: database or disk is full$/m);
    expect(r.stderr).toContain('free some space and run it again: the rows committed so far are kept');
    const kept = await sqliteNumber(db, 'select count(*) from leads');
    expect(kept).toBeGreaterThan(0);
    expect(r.stderr).toContain(`Kept what was committed: leads ${kept} new`);
  });
});

describe.skipIf(!ready)(`leadctl sync: where and whose${ready ? '' : ` (skipped: ${skipped})`}`, () => {
  it('without --db writes $XDG_DATA_HOME/leadctl/leads.db (folder 0700), printed; count(*) equals meta.total', async () => {
    const sandbox = await sandboxWith({ leads: 42, history: 3 });
    const data = tempDir();
    const r = await runCli(['sync', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home, XDG_DATA_HOME: data },
    });
    expect(r.exitCode).toBe(0);
    const db = join(data, 'leadctl', 'leads.db');
    expect(r.stderr).toContain(`Database: ${db} (account default)\n`);
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(42);
    expect((await stat(join(data, 'leadctl'))).mode & 0o777).toBe(0o700);
  });

  it('keeps another account beside the first (--account); refuses a file that is not a database', async () => {
    const sandbox = await sandboxWith({ leads: 3, history: 1 });
    const other = await sandboxWith({ leads: 4, history: 1, seed: 2 });
    const dir = tempDir();
    const db = join(dir, 'leads.db');
    expect((await sync(db, of(sandbox))).exitCode).toBe(0);
    const r = await sync(db, of(other), ['--account', 'Acme Dental']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`Database: ${db} (account Acme Dental)`);
    expect(
      await sqliteRows(db, 'select account, count(*) n from leads group by account order by account'),
    ).toEqual([
      { account: 'Acme Dental', n: 4 },
      { account: 'default', n: 3 },
    ]);

    const text = join(dir, 'notes.csv');
    await writeFile(text, 'name,phone\nAcme,+1 512 555 0101\n');
    const notDb = await sync(text, of(sandbox));
    expect(notDb.exitCode).toBe(2);
    expect(notDb.stderr).toMatch(/^leadctl: cannot open database .*notes\.csv: file is not a database$/m);
    expect(await readFile(text, 'utf8')).toBe('name,phone\nAcme,+1 512 555 0101\n');
  });

  it('takes over a lock left by a process that is gone', async () => {
    const sandbox = await sandboxWith({ leads: 3, history: 1 });
    const db = join(tempDir(), 'leads.db');
    const gone = await execa('node', ['-e', 'process.stdout.write(String(process.pid))']);
    await mkdir(`${db}.default.lock`);
    await writeFile(
      join(`${db}.default.lock`, 'owner.json'),
      JSON.stringify({
        pid: Number(gone.stdout),
        host: hostname(),
        command: 'leadctl sync',
        startedAt: 'then',
        token: 'gone',
      }),
    );
    const r = await sync(db, of(sandbox));
    expect(r.exitCode).toBe(0);
    expect(existsSync(`${db}.default.lock`)).toBe(false);
  });

  it('waits for another program writing the file in rollback mode (SQLite runs no busy handler for the switch to WAL)', async () => {
    // Two syncs opening a new file at once meet the same: the first one's writes, before its WAL.
    const sandbox = await sandboxWith({ leads: 120, history: 2 });
    const db = join(tempDir(), 'leads.db');
    const writer = execa(
      'node',
      [
        '-e',
        `const db = new (require('node:sqlite').DatabaseSync)(process.argv[1]);
         db.exec('CREATE TABLE notes (x); BEGIN IMMEDIATE; INSERT INTO notes VALUES (1)');
         process.stdout.write('held\\n');
         process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); });`,
        db,
      ],
      { stdin: 'pipe', stderr: 'ignore' },
    );
    await new Promise((resolve) => writer.stdout?.once('data', resolve));
    const run = sync(db, of(sandbox));
    // Still held a second after the run began: without the retry, the run has failed by then.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    writer.stdin?.end('commit\n');
    await writer;
    const r = await run;
    expect(r.stderr).not.toContain('database is locked');
    expect(r.exitCode).toBe(0);
    expect(await sqliteNumber(db, 'select count(*) from leads')).toBe(120);
    expect(await sqliteRows(db, 'select x from notes')).toEqual([{ x: 1 }]);
    expect((await execa('sqlite3', [db, 'pragma journal_mode'])).stdout).toBe('wal');
  });
});

describe.skipIf(HAS_NODE_SQLITE)('leadctl sync on a Node without node:sqlite', () => {
  it('says in one line what it needs, exit 2, before any request', async () => {
    const sandbox = await sandboxWith({ leads: 5 });
    const r = await sync(join(tempDir(), 'leads.db'), of(sandbox));
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `leadctl: sync needs Node's built-in SQLite (node:sqlite), in Node 22.13 or newer; this is Node ${process.versions.node}`,
    );
    expect(sandbox.requests.length).toBe(0);
  });
});
