// PostgreSQL as an agency sets it up, on every Node (20 included): the password from PGPASSWORD,
// ~/.pgpass or the stored db-url and never in a message or the process list; libpq's variables; the
// least-rights roles docs/sync.md creates; search --db, --new-only, --cache, --seen-by all, --exclude
// and a batch against the shared database. Runs in-process where the process is not the point.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { adminClient, POSTGRES, type TestDatabase } from '../helpers/databases.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 120, history: 3 });
});
afterAll(() => sandbox.close());

const api = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const parts = (db: TestDatabase) => new URL(db.db);

describe.skipIf(POSTGRES.skip)(`PostgreSQL${POSTGRES.skip ? ` (skipped: ${POSTGRES.skip})` : ''}`, () => {
  it('never shows the password: --db with one is refused unechoed; a wrong one is named without it', async () => {
    const db = await POSTGRES.fresh();
    const secret = db.env.PGPASSWORD as string;
    const withPassword = new URL(db.db);
    withPassword.password = secret;
    const sent = sandbox.requests.length;
    const refused = await runCli(['sync', '--db', withPassword.href, ...api()]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'leadctl: --db must not hold a password: the process list and shell history would show it\n' +
        'give it through PGPASSWORD or ~/.pgpass, or store the whole URL: leadctl config set db-url\n',
    );
    const wrong = await runCli(['sync', '--db', db.db, ...api()], {
      env: { PGPASSWORD: `${secret}-not` },
    });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(
      `leadctl: cannot open database ${db.db}: password authentication failed for user "${parts(db).username}"`,
    );
    expect(wrong.stderr).not.toContain(secret);
    const none = await runCli(['sync', '--db', db.db, ...api()], { env: { HOME: tempDir('home') } });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(`leadctl: ${db.db} asks for a password\ngive it through PGPASSWORD, `);
    expect(sandbox.requests.length).toBe(sent);
  });

  it('reads ~/.pgpass (not one others can read) and libpq variables; db-url in the profile is masked and used', async () => {
    const db = await POSTGRES.fresh();
    const { hostname, port, pathname } = parts(db);
    const secret = db.env.PGPASSWORD as string;
    const home = tempDir('home');
    writeFileSync(
      join(home, '.pgpass'),
      `# agency\nother:*:*:*:nope\n${hostname}:${port}:*:${parts(db).username}:${secret}\n`,
      {
        mode: 0o644,
      },
    );
    const libpq = {
      HOME: home,
      PGHOST: hostname,
      PGPORT: port,
      PGUSER: parts(db).username,
      PGDATABASE: pathname.slice(1),
    };
    const open = await runCli(['sync', '--db', 'postgres://', ...api()], { env: libpq });
    expect(open.stderr).toContain('asks for a password');
    const { chmodSync } = await import('node:fs');
    chmodSync(join(home, '.pgpass'), 0o600);
    const viaPgpass = await runCli(['sync', '--db', 'postgresql://', ...api()], { env: libpq });
    expect(viaPgpass.exitCode).toBe(0);
    expect(viaPgpass.stderr).toContain(
      `Database: postgres://${parts(db).username}@${hostname}:${port}${pathname} (account default)`,
    );

    const config = tempDir('config');
    const stored = new URL(db.db);
    stored.password = secret;
    const env = { XDG_CONFIG_HOME: config };
    const set = await runCli(['config', 'set', 'db-url'], { env, input: `${stored.href}\n` });
    expect(set.exitCode).toBe(0);
    const get = await runCli(['config', 'get', 'db-url'], { env });
    expect(get.stdout).toBe(
      `postgres://${parts(db).username}:…${secret.slice(-4)}@${hostname}:${port}${pathname}\n`,
    );
    const list = await runCli(['config', 'list'], { env });
    expect(list.stdout).not.toContain(secret);
    const synced = await runCli(['sync', ...api()], { env });
    expect(synced.exitCode).toBe(0);
    expect(synced.stderr).toContain('Synced: leads 0 new, 0 changed; history 0 new, 0 changed (2 requests).');
    expect(synced.stderr).not.toContain(secret);
    // While a sync runs, its command line holds no password (it came from the profile).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const atServer = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    sandbox.onRequest(async () => {
      arrived();
      await held;
    });
    const child = spawnCli(['sync', ...api()], { env, stdin: 'ignore' });
    await atServer;
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain(secret);
    sandbox.onRequest(undefined);
    release();
    expect((await child).exitCode).toBe(0);
  });

  it('works with the least-rights roles of docs/sync.md: the owner creates the tables, the sync role only writes rows', async () => {
    const db = await POSTGRES.fresh();
    const name = parts(db).pathname.slice(1);
    const suffix = name.slice(-6);
    const admin = await adminClient(name);
    const [owner, syncer, reader] = [`owner_${suffix}`, `sync_${suffix}`, `read_${suffix}`];
    // docs/sync.md, "PostgreSQL for a team", with this test's names.
    for (const sql of [
      `CREATE ROLE ${owner} LOGIN PASSWORD 'o'`,
      `CREATE ROLE ${syncer} LOGIN PASSWORD 's'`,
      `CREATE ROLE ${reader} LOGIN PASSWORD 'r'`,
      `GRANT CONNECT ON DATABASE ${name} TO ${owner}, ${syncer}, ${reader}`,
      `CREATE SCHEMA leadctl AUTHORIZATION ${owner}`,
      `GRANT USAGE ON SCHEMA leadctl TO ${syncer}, ${reader}`,
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA leadctl GRANT SELECT, INSERT, UPDATE ON TABLES TO ${syncer}`,
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA leadctl GRANT SELECT ON TABLES TO ${reader}`,
      `ALTER ROLE ${owner} SET search_path = leadctl`,
      `ALTER ROLE ${syncer} SET search_path = leadctl`,
      `ALTER ROLE ${reader} SET search_path = leadctl`,
    ]) {
      await admin.query(sql);
    }
    const as = (role: string, password: string) => {
      const url = new URL(db.db);
      url.username = role;
      return { db: url.href, env: { PGPASSWORD: password } };
    };
    const first = await runCli(['--profile', 'default', 'sync', '--db', as(owner, 'o').db, ...api()], {
      env: as(owner, 'o').env,
    });
    expect(first.exitCode).toBe(0);
    sandbox.addLeads(3);
    const later = await runCli(['sync', '--db', as(syncer, 's').db, '--account', 'client-b', ...api()], {
      env: as(syncer, 's').env,
    });
    expect(later.stderr).toContain('Synced: leads 123 new');
    expect(later.exitCode).toBe(0);
    const { rows } = await admin.query(
      'SELECT account, count(*)::int AS n FROM leadctl.leads GROUP BY 1 ORDER BY 1',
    );
    expect(rows).toEqual([
      { account: 'client-b', n: 123 },
      { account: 'default', n: 120 },
    ]);
    await admin.end();
    const url = parts(db);
    const analyst = new pg.Client({
      host: url.hostname,
      port: Number(url.port),
      user: reader,
      password: 'r',
      database: name,
    });
    await analyst.connect();
    expect((await analyst.query('SELECT count(*)::int AS n FROM leads')).rows).toEqual([{ n: 243 }]);
    await expect(analyst.query("UPDATE leads SET name = 'x'")).rejects.toThrow(/permission denied/);
    await analyst.end();
  });

  it('search --db, --new-only and --cache use the account; --seen-by all the whole agency; --exclude and a batch read it too', async () => {
    const db = await POSTGRES.fresh();
    const run = (args: string[]) => runCli(['search', ...args, '--db', db.db, ...api()], { env: db.env });
    const a = await run(['plumber', '-l', 'Austin', '--account', 'client-a', '--json']);
    expect(a.exitCode).toBe(0);
    const results = JSON.parse(a.stdout) as { place_id: string }[];
    expect(await db.number("select count(*) from search_results where account = 'client-a'")).toBe(
      results.length,
    );

    // Another account has not seen them; the whole agency has.
    const b = await run(['plumber', '-l', 'Austin', '--account', 'client-b', '--new-only', '--json']);
    expect((JSON.parse(b.stdout) as unknown[]).length).toBe(results.length);
    const c = await run([
      'plumber',
      '-l',
      'Austin',
      '--account',
      'client-c',
      '--new-only',
      '--seen-by',
      'all',
      '--json',
    ]);
    expect(c.stdout).toBe('[]\n');
    expect(c.stderr).toContain(`0 of ${results.length} written: ${results.length} seen before`);

    const sent = sandbox.requests.filter((r) => r.path === '/api/v1/search').length;
    const cached = await run(['plumber', '-l', 'Austin', '--account', 'client-a', '--cache', '1h', '--json']);
    expect(cached.stderr).toContain('no request sent');
    expect(cached.stdout).toBe(a.stdout);
    expect(sandbox.requests.filter((r) => r.path === '/api/v1/search').length).toBe(sent);

    const excluded = await runCli(
      ['search', 'plumber', '-l', 'Austin', '--exclude', db.db, '--account', 'client-a', '--json', ...api()],
      {
        env: db.env,
      },
    );
    expect(excluded.stdout).toBe('[]\n');

    const input = join(tempDir(), 'in.csv');
    writeFileSync(input, 'query,location\nbakery,Austin\nbarber,Austin\n');
    const batch = await runCli(
      ['search', '--input', input, '--db', db.db, '--new-only', '--json', ...api()],
      {
        env: db.env,
      },
    );
    expect(batch.exitCode).toBe(0);
    const places = (JSON.parse(batch.stdout) as { place_id: string }[]).map((r) => r.place_id);
    expect(await db.number("select count(*) from searches where account = 'default'")).toBe(2);
    expect(
      await db.number("select count(distinct place_id) from search_results where account = 'default'"),
    ).toBe(new Set(places).size);
  });
});

// What a machine without the test server would see: no request, one line. (The cluster is the run's.)
describe.skipIf(POSTGRES.skip)('a PostgreSQL that is not there', () => {
  it('is exit 2 before any request, naming the URL and the fix', async () => {
    const home = tempDir('home');
    mkdirSync(join(home, 'x'));
    const sent = sandbox.requests.length;
    const r = await runCli(['sync', '--db', 'postgres://nobody@127.0.0.1:1/none', ...api()], {
      env: { PGPASSWORD: 'x', HOME: home },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^leadctl: cannot open database postgres:\/\/nobody@127\.0\.0\.1:1\/none: .*ECONNREFUSED.*\nis the server running/m,
    );
    expect(sandbox.requests.length).toBe(sent);
  });
});
