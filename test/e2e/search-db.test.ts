// search --db, --new-only, --cache and --exclude against the sandbox: results kept by place_id with
// the query, location and time (read back with the sqlite3 shell); only never-seen places; a repeat
// within --cache answered from the database with no request; suppression on each matching rule.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
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
let sandbox: SandboxHandle;
beforeAll(async () => {
  home = await tempConfigHome();
  sandbox = await startSandbox({ leads: 5, history: 2 });
  return () => sandbox.close();
});

function search(args: string[], env: Record<string, string> = {}) {
  return runCli(['search', ...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
    env: { XDG_CONFIG_HOME: home, ...env },
  });
}

const searches = () => sandbox.requests.filter((r) => r.path === '/api/v1/search').length;

const ready = HAS_NODE_SQLITE && HAS_SQLITE3_SHELL;
const skipped = HAS_NODE_SQLITE ? SHELL_SKIP_REASON : ENGINE_SKIP_REASON;

describe.skipIf(!ready)(`search --db and friends${ready ? '' : ` (skipped: ${skipped})`}`, () => {
  it('--db keeps every result by place_id with the query, location and time; --new-only then writes nothing', async () => {
    const db = join(tempDir(), 'leads.db');
    const first = await search(['plumber', '-l', 'Austin', '--db', db, '--json']);
    expect(first.exitCode).toBe(0);
    const results = JSON.parse(first.stdout) as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(0);
    const stored = await sqliteRows(db, 'select place_id, name, phone, json from search_results');
    expect(stored.map((row) => row.place_id).sort()).toEqual(results.map((r) => r.place_id).sort());
    for (const row of stored)
      expect(JSON.parse(row.json as string)).toEqual(results.find((r) => r.place_id === row.place_id));
    expect(await sqliteRows(db, 'select query, location, radius, results_count from searches')).toEqual([
      { query: 'plumber', location: 'Austin', radius: null, results_count: results.length },
    ]);
    const sightings = await sqliteRows(db, 'select place_id from search_sightings order by position');
    expect(sightings.map((row) => row.place_id)).toEqual(results.map((r) => r.place_id));

    const again = await search(['plumber', '-l', 'Austin', '--db', db, '--new-only', '--json']);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe('[]\n');
    expect(again.stderr).toContain(`0 of ${results.length} written: ${results.length} seen before`);
    // Seen again: stored again as a search, not as more places.
    expect(await sqliteNumber(db, 'select count(*) from searches')).toBe(2);
    expect(await sqliteNumber(db, 'select count(*) from search_results')).toBe(results.length);
  });

  it('--new-only without --db uses the database sync keeps, across searches', async () => {
    const data = tempDir();
    const env = { XDG_DATA_HOME: data };
    const austin = await search(['roofer', '-l', 'Austin', '--new-only', '--csv'], env);
    expect(austin.exitCode).toBe(0);
    const db = join(data, 'leadctl', 'leads.db');
    const rows = parseCsv(austin.stdout).length - 1;
    expect(await sqliteNumber(db, 'select count(*) from search_results')).toBe(rows);
    const repeat = await search(['roofer', '-l', 'Austin', '--new-only', '--csv'], env);
    expect(parseCsv(repeat.stdout)).toEqual([parseCsv(austin.stdout)[0]]);
  });

  it('--cache 1h answers a repeat from the database with no request, the same bytes in every format', async () => {
    const db = join(tempDir(), 'leads.db');
    for (const format of ['json', 'csv', 'ndjson', 'tsv']) {
      const sent = searches();
      const live = await search([
        'electrician',
        '-l',
        'Dallas',
        '-r',
        '5',
        '--db',
        db,
        '--cache',
        '1h',
        '-f',
        format,
      ]);
      const cached = await search([
        'electrician',
        '-l',
        'Dallas',
        '-r',
        '5',
        '--db',
        db,
        '--cache',
        '1h',
        '-f',
        format,
      ]);
      expect(live.exitCode).toBe(0);
      expect(cached.exitCode).toBe(0);
      expect(cached.stdout).toBe(live.stdout);
      expect(cached.stderr).toContain(`from ${db}, searched `);
      expect(cached.stderr).toContain('no request sent');
      // Only the first of the four formats sends a search; the other runs are all answered locally.
      expect(searches() - sent).toBe(format === 'json' ? 1 : 0);
    }
    // Searched two hours ago: older than --cache 1h, so it is sent again.
    await execa('sqlite3', [
      db,
      "update searches set searched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 hours')",
    ]);
    const before = searches();
    const stale = await search([
      'electrician',
      '-l',
      'Dallas',
      '-r',
      '5',
      '--db',
      db,
      '--cache',
      '1h',
      '--json',
    ]);
    expect(stale.stderr).not.toContain('no request sent');
    expect(searches() - before).toBe(1);
    // Another radius is another search.
    const sent = searches();
    expect(
      (await search(['electrician', '-l', 'Dallas', '--db', db, '--cache', '1h', '--json'])).exitCode,
    ).toBe(0);
    expect(searches() - sent).toBe(1);
  });

  it('--exclude reads a leadctl database; a CSV with nothing to match on is exit 2 before any request', async () => {
    const db = join(tempDir(), 'leads.db');
    expect((await search(['florist', '-l', 'Austin', '--db', db, '--json'])).exitCode).toBe(0);
    const r = await search(['florist', '-l', 'Austin', '--exclude', db, '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('[]\n');

    const useless = join(tempDir(), 'useless.csv');
    await writeFile(useless, 'company,city\nAcme,Austin\n');
    const sent = sandbox.requests.length;
    const bad = await search(['florist', '-l', 'Austin', '--exclude', useless]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^leadctl: --exclude .*useless\.csv has none of the columns to match on$/m);
    expect(sandbox.requests.length).toBe(sent);
  });

  it('a batch with --db --new-only writes each place once across rows; with --cache it sends nothing', async () => {
    const dir = tempDir();
    const db = join(dir, 'leads.db');
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nbakery,Austin\nbakery,Austin TX\nbarber,Austin\n');
    const first = await runCli(
      [
        'search',
        '--input',
        input,
        '--db',
        db,
        '--new-only',
        '--json',
        '--base-url',
        sandbox.url,
        '--api-key',
        sandbox.apiKey,
      ],
      { env: { XDG_CONFIG_HOME: home } },
    );
    expect(first.exitCode).toBe(0);
    const places = (JSON.parse(first.stdout) as Record<string, string>[]).map((r) => r.place_id);
    expect(new Set(places).size).toBe(places.length);
    expect(await sqliteNumber(db, 'select count(*) from search_results')).toBe(places.length);

    const sent = searches();
    const cached = await runCli(
      [
        'search',
        '--input',
        input,
        '--db',
        db,
        '--cache',
        '1h',
        '--json',
        '--base-url',
        sandbox.url,
        '--api-key',
        sandbox.apiKey,
      ],
      { env: { XDG_CONFIG_HOME: home } },
    );
    expect(cached.exitCode).toBe(0);
    expect(searches()).toBe(sent);
    // Nothing was sent, and the summary says so.
    expect(cached.stderr).toMatch(
      /^0 sent, 3 answered from the database, 0 failed, 0 skipped as duplicate; /m,
    );
    // Answers from the database spend no request: a cap of one does not stop them.
    const capped = await runCli(
      ['search', '--input', input, '--db', db, '--cache', '1h', '--max-requests', '1', '--json'],
      { env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey } },
    );
    expect(capped.stderr).toMatch(/^0 sent, 3 answered from the database, /m);
    expect(capped.exitCode).toBe(0);
    expect(capped.stdout).toBe(cached.stdout);
    expect(await sqliteNumber(db, 'select count(*) from searches')).toBe(3);
    // A search sent first spends the one request the cap allows; the cached rows after it still run.
    const mixed = join(dir, 'mixed.csv');
    await writeFile(
      mixed,
      'query,location\nflorist,Austin\nbakery,Austin\nbakery,Austin TX\nbarber,Austin\n',
    );
    const sentOne = await runCli(
      ['search', '--input', mixed, '--db', db, '--cache', '1h', '--max-requests', '1', '--json'],
      { env: { XDG_CONFIG_HOME: home, LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey } },
    );
    expect(sentOne.stderr).toMatch(/^1 sent, 3 answered from the database, /m);
    expect(sentOne.exitCode).toBe(0);
  });
});

// A CSV suppression list needs no database: it works on every Node.
describe('search --exclude FILE.csv', () => {
  it('--exclude drops a business on each rule: place_id, phone, website, name with address', async () => {
    const all = JSON.parse((await search(['dentist', '-l', 'Austin', '--json'])).stdout) as Record<
      string,
      string
    >[];
    // Businesses that share no phone or website with another result: each can match by one rule only.
    // Compared as the rules compare them: a phone by its digits (the sandbox spells some spaced, some
    // E.164), a website by its host without www.
    const phoneKey = (r: Record<string, string>) => r.phone?.replace(/\D/g, '');
    const siteKey = (r: Record<string, string>) =>
      r.website && new URL(r.website).hostname.replace(/^www\./, '');
    const count = (key: (r: Record<string, string>) => string | undefined, value: string | undefined) =>
      all.filter((r) => key(r) === value).length;
    const withPhone = all.filter(
      (r) => r.phone && r.website && count(phoneKey, phoneKey(r)) === 1 && count(siteKey, siteKey(r)) === 1,
    );
    expect(withPhone.length).toBeGreaterThanOrEqual(4);
    const [byId, byPhone, byWebsite, byName] = withPhone as [
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
    ];
    const digits = byPhone.phone?.replace(/\D/g, '').slice(1) as string;
    const host = new URL(byWebsite.website as string).hostname.replace(/^www\./, '');
    const crm = [
      'place_id,Phone,Website,Name,Address',
      `${byId.place_id},,,,`,
      `,(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)} ext. 9,,,`,
      `,,http://WWW.${host.toUpperCase()}/contact?x=1,,`,
      `,,,"${(byName.name as string).toUpperCase()}, LLC","${(byName.address as string).replace(/\bSt\b/, 'Street')}"`,
    ].join('\n');
    const file = join(tempDir(), 'crm.csv');
    await writeFile(file, `${crm}\n`);
    const r = await search(['dentist', '-l', 'Austin', '--exclude', file, '--json']);
    expect(r.exitCode).toBe(0);
    const kept = (JSON.parse(r.stdout) as Record<string, string>[]).map((x) => x.place_id);
    for (const gone of [byId, byPhone, byWebsite, byName]) expect(kept).not.toContain(gone.place_id);
    expect(kept.length).toBe(all.length - 4);
    expect(r.stderr).toContain('4 excluded (id 1, phone 1, website 1, name + address 1)');
  });

  it('reads a semicolon CSV (European Excel) as it reads a comma one', async () => {
    const all = JSON.parse((await search(['roofer', '-l', 'Austin', '--json'])).stdout) as {
      place_id: string;
    }[];
    const file = join(tempDir(), 'crm.csv');
    await writeFile(file, `Name;place_id\nA, B;${all[0]?.place_id}\n`);
    const r = await search(['roofer', '-l', 'Austin', '--exclude', file, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(all.slice(1));
  });

  // Nothing is held whole: an endless or oversized file is refused as it is read, before any search.
  it('refuses a file past --max-input-bytes, endless input and an open quote: exit 2, one line, nothing sent', async () => {
    const file = join(tempDir(), 'big.csv');
    await writeFile(file, `place_id\n${'x'.repeat(80)}\n`.repeat(30));
    const sent = sandbox.requests.length;
    const cases: [string[], string][] = [
      [
        [file, '--max-input-bytes', '1K'],
        `leadctl: --exclude ${file} is larger than 1024 bytes, the --exclude ceiling; nothing was searched (raise it with --max-input-bytes)`,
      ],
      [
        ['/dev/zero'],
        'leadctl: --exclude /dev/zero is not UTF-8 text (it holds NUL bytes: UTF-16 without a byte-order mark?); nothing was searched (save it as "CSV UTF-8", or: iconv -f utf-16le -t utf-8 in.txt > in.csv)',
      ],
    ];
    const open = join(tempDir(), 'open.csv');
    await writeFile(open, 'place_id,name\nabc,"Joe\'s\nxyz,Acme\n');
    cases.push([[open], `leadctl: --exclude ${open}, line 2: a quoted field is never closed (missing ")`]);
    for (const [args, line] of cases) {
      const r = await search(['roofer', '-l', 'Austin', '--exclude', ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(line);
    }
    expect(sandbox.requests.length).toBe(sent);
  });
});

describe.skipIf(HAS_NODE_SQLITE)('search --db on a Node without node:sqlite', () => {
  it('says in one line what it needs, exit 2, before any request', async () => {
    const sent = sandbox.requests.length;
    const r = await search(['plumber', '-l', 'Austin', '--db', join(tempDir(), 'x.db')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `leadctl: --db needs Node's built-in SQLite (node:sqlite), in Node 22.13 or newer; this is Node ${process.versions.node}`,
    );
    expect(sandbox.requests.length).toBe(sent);
  });
});
