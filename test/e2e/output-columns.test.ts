// Column names for imports (--fields name:Company) in every format, and header cells that a server
// names: with --fields all a key `=HYPERLINK(...)` or a key holding ESC must never reach a header raw.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';

let sandbox: SandboxHandle;
let hostile: FakeServer;
let home: string;

const FORMULA_KEY = '=HYPERLINK("http://evil","x")';
const ESC_KEY = 'bad\u001b]8;;http://evil\u0007key';
const PLUS_KEY = "+cmd|' /C calc'!A0";

const leads = (args: string[]) =>
  runCli(['leads', '--limit', '2', ...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
    env: { XDG_CONFIG_HOME: home },
  });
const fromHostile = (args: string[]) =>
  runCli(['leads', ...args, '--base-url', hostile.baseUrl, '--api-key', 'k-test'], {
    env: { XDG_CONFIG_HOME: home },
  });

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 10, seed: 7 });
  home = await tempConfigHome();
  hostile = await startFakeServer();
  // A server whose keys are a formula, a terminal escape and a DDE payload.
  hostile.route(
    'GET',
    '/api/v1/leads',
    json(200, {
      leads: [{ name: 'Acme', [FORMULA_KEY]: 'v1', [ESC_KEY]: 'v2', [PLUS_KEY]: 'v3' }],
      meta: { page: 1, limit: 25, total: 1, totalPages: 1 },
    }),
  );
});
afterAll(async () => {
  await sandbox.close();
  await hostile.close();
});

describe('--fields renames columns', () => {
  const fields = 'name:Company,phone:"Phone, main",website';

  it('csv: the header says the new names, the rows are the same fields', async () => {
    const plain = await leads(['--csv', '--fields', 'name,phone,website']);
    const renamed = await leads(['--csv', '--fields', fields]);
    expect(renamed.exitCode).toBe(0);
    const [header, ...rows] = parseCsv(renamed.stdout);
    expect(header).toEqual(['Company', 'Phone, main', 'website']);
    expect(rows).toEqual(parseCsv(plain.stdout).slice(1));
    expect(renamed.stdout.split('\r\n')[0]).toBe('Company,"Phone, main",website');
  });

  it('tsv and table: the header says the new names', async () => {
    const tsv = await leads(['-f', 'tsv', '--fields', 'name:Company,phone:Phone Number']);
    expect(tsv.stdout.split('\n')[0]).toBe('Company\tPhone Number');
    const table = await leads(['-f', 'table', '--fields', 'name:Company,saved_at:Saved']);
    expect(table.stdout.split('\n')[0]).toMatch(/^Company +Saved \(UTC\)$/);
  });

  it('json and ndjson: the keys are the new names, in the order given', async () => {
    const asJson = await leads(['--json', '--fields', 'phone:Phone Number,name:Company']);
    const items = JSON.parse(asJson.stdout) as Record<string, unknown>[];
    expect(items).toHaveLength(2);
    for (const item of items) expect(Object.keys(item)).toEqual(['Phone Number', 'Company']);
    const ndjson = await leads(['-f', 'ndjson', '--fields', 'name:"a:b ""c"""']);
    expect(Object.keys(JSON.parse(ndjson.stdout.split('\n')[0] as string))).toEqual(['a:b "c"']);
  });

  it('the footer repeats the renames so that the next page has the same columns', async () => {
    const result = await leads(['--csv', '--fields', fields]);
    expect(result.stderr).toContain(`--fields '${fields}', or --all.`);
  });

  it.each([
    [['name:Company,phone:Company'], 'leadctl: duplicate column name in --fields: "Company"'],
    [['name,name'], 'leadctl: duplicate column name in --fields: "name"'],
    [['name:"Company'], 'leadctl: invalid --fields "name:\\"Company": a quote is not closed'],
    [['name:'], 'leadctl: invalid --fields entry "name:": an empty column name after ":"'],
    [[':Company'], 'leadctl: invalid --fields entry ":Company": no field name'],
    [['nam:Company'], 'leadctl: unknown field in --fields: nam (did you mean name?)'],
  ])('refuses --fields %j with exit 2 and one line', async (args, line) => {
    const result = await leads(['--csv', '--fields', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(line);
  });

  it('says the grammar after a bad entry', async () => {
    const result = await leads(['--csv', '--fields', 'name:']);
    expect(result.stderr).toContain('FIELD or FIELD:LABEL');
  });
});

describe('a header the server names is never raw', () => {
  it('csv: formula keys get the guard, in quotes where needed', async () => {
    const result = await fromHostile(['--csv', '--fields', 'all']);
    expect(result.exitCode).toBe(0);
    const [header] = parseCsv(result.stdout);
    expect(header).toEqual(['name', `'${FORMULA_KEY}`, ESC_KEY, `'${PLUS_KEY}`]);
    // To a file or pipe csv keeps the bytes (the ESC is data, as in every cell); never a live formula.
    for (const cell of header ?? []) expect(cell).not.toMatch(/^[=+@-]/);
  });

  it('tsv: formula keys guarded, ESC written as \\x1b', async () => {
    const result = await fromHostile(['-f', 'tsv', '--fields', 'all']);
    const header = result.stdout.split('\n')[0] as string;
    expect(header).toBe(`name\t'${FORMULA_KEY}\tbad\\x1b]8;;http://evil\\x07key\t'${PLUS_KEY}`);
    expect(header).not.toContain('\u001b');
  });

  it('--no-sanitize turns the header guard off with the cells', async () => {
    const result = await fromHostile(['--csv', '--fields', 'all', '--no-sanitize']);
    expect(parseCsv(result.stdout)[0]?.[1]).toBe(FORMULA_KEY);
  });

  it('table: the escape shows as text', async () => {
    const result = await fromHostile(['-f', 'table', '--fields', 'all']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('bad\\x1b]8;;http://evil\\x07key');
  });

  it('json and ndjson: keys exact once parsed, control characters escaped in the text', async () => {
    for (const format of ['json', 'ndjson']) {
      const result = await fromHostile(['-f', format]);
      expect(result.stdout).not.toContain('\u001b');
      expect(result.stdout).not.toContain('\u0007');
      const text = format === 'json' ? result.stdout : `[${result.stdout.trim()}]`;
      const [item] = JSON.parse(text) as Record<string, unknown>[];
      expect(Object.keys(item ?? {})).toEqual(['name', FORMULA_KEY, ESC_KEY, PLUS_KEY]);
    }
  });
});

describe('bom stored in the profile', () => {
  it('config set bom true gives csv and tsv a byte-order mark; --no-bom turns it off for one run', async () => {
    const profileHome = await tempConfigHome();
    const inProfile = (args: string[]) =>
      runCli([...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
        env: { XDG_CONFIG_HOME: profileHome },
      });
    const csvArgs = ['leads', '--limit', '1', '--fields', 'name', '--csv'];
    expect((await inProfile(csvArgs)).stdout.startsWith('\ufeff')).toBe(false);

    expect((await inProfile(['config', 'set', 'bom', 'true'])).exitCode).toBe(0);
    const stored = JSON.parse(await readFile(join(profileHome, 'leadctl', 'config.json'), 'utf8'));
    expect(JSON.stringify(stored)).toContain('"bom":true');
    expect((await inProfile(['config', 'get', 'bom'])).stdout).toBe('true\n');

    expect((await inProfile(csvArgs)).stdout.startsWith('\ufeffname\r\n')).toBe(true);
    expect((await inProfile(['leads', '--limit', '1', '-f', 'tsv'])).stdout.startsWith('\ufeff')).toBe(true);
    expect((await inProfile([...csvArgs, '--no-bom'])).stdout.startsWith('name\r\n')).toBe(true);
    // json never gets one, and a stored bom is no reason for a warning.
    const json = await inProfile(['leads', '--limit', '1', '--json']);
    expect(json.stdout.startsWith('[')).toBe(true);
    expect(json.stderr).not.toContain('--bom');
  });

  it('refuses a value that is not true or false', async () => {
    const result = await runCli(['config', 'set', 'bom', 'yes'], { env: { XDG_CONFIG_HOME: home } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('leadctl: invalid bom "yes": expected true or false');
  });
});
