// Output that does what the user meant: --fields checked against what the server sends (and `all`),
// the format taken from -o's extension, --bom for Excel, tables that say what they hid and in which
// zone their times are, a footer whose next-page hint keeps the page's shape, json for a person on a
// terminal and byte-for-byte unchanged in a pipe.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli, tempConfigHome } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
let odd: FakeServer;
let home: string;
const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const leads = (args: string[], env: Record<string, string> = {}) =>
  runCli(['leads', ...args, ...auth()], { env: { XDG_CONFIG_HOME: home, ...env } });

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 60, seed: 7 });
  home = await tempConfigHome();
  odd = await startFakeServer();
  // A server that sends a field the spec does not list, in its own order.
  odd.route(
    'GET',
    '/api/v1/leads',
    json(200, {
      leads: [
        { name: 'Acme', id: 'a1', owner: 'Zoë', phone: '+1 512-555-0101' },
        { name: 'Bolt', id: 'b2', owner: 'Ann', tier: 'gold' },
      ],
      meta: { page: 1, limit: 25, total: 2, totalPages: 1 },
    }),
  );
});
afterAll(async () => {
  await sandbox.close();
  await odd.close();
});

const fromOdd = (args: string[]) =>
  runCli(['leads', ...args, '--base-url', odd.baseUrl, '--api-key', 'k'], { env: { XDG_CONFIG_HOME: home } });

describe('--fields', () => {
  it('refuses an unknown name with exit 2, the known fields, and no output', async () => {
    const dir = tempDir('fields');
    const r = await leads(['--fields', 'name,phon', '-o', join(dir, 'out.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'leadctl: unknown field in --fields: phon (did you mean phone?)',
      'known fields: id, name, address, phone, website, rating, review_count, category, saved_at, domain (or --fields all)',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the fields a server sends beyond the spec selectable', async () => {
    const r = await fromOdd(['--csv', '--fields', 'name,owner']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('name,owner\r\nAcme,Zoë\r\nBolt,Ann\r\n');
  });

  it('all: every field of the first page in csv, in the server order', async () => {
    const r = await fromOdd(['--csv', '--fields', 'all']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'name,id,owner,phone,tier\r\nAcme,a1,Zoë,+1 512-555-0101,\r\nBolt,b2,Ann,,gold\r\n',
    );
  });

  it('all: whole items in json', async () => {
    const r = await fromOdd(['--json', '--fields', 'all']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)[1]).toEqual({ name: 'Bolt', id: 'b2', owner: 'Ann', tier: 'gold' });
  });
});

describe('-o FILE without a format option', () => {
  it.each([
    ['x.csv', /^id,name,address/],
    ['x.tsv', /^id\tname\taddress/],
    ['x.json', /^\[\n\{"id":/],
    ['x.ndjson', /^\{"id":.*\}\n\{"id":/],
    ['x.JSONL', /^\{"id":.*\}\n\{"id":/],
  ])('%s: the format follows the extension', async (name, shape) => {
    const file = join(tempDir('ext'), name);
    const r = await leads(['--limit', '2', '-o', file]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(shape);
    expect(r.stderr).not.toMatch(/warning|format/);
  });

  it('any other extension: json, with a note', async () => {
    const file = join(tempDir('ext'), 'leads.txt');
    const r = await leads(['--limit', '2', '-o', file]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^\[\n\{"id":/);
    expect(r.stderr).toContain(`Writing json to ${file}: its name says no format (-f picks one).\n`);
  });

  it('a format option that contradicts the extension wins, with a warning', async () => {
    const file = join(tempDir('ext'), 'leads.json');
    const r = await leads(['--limit', '2', '--csv', '-o', file]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^id,name/);
    expect(r.stderr).toContain(`leadctl: warning: writing csv to ${file}, whose extension says json\n`);
  });
});

describe('--bom', () => {
  it.each(['csv', 'tsv'])('starts %s with a UTF-8 byte-order mark, once', async (format) => {
    const file = join(tempDir('bom'), `x.${format}`);
    const r = await leads(['--all', '--limit', '25', '--bom', '-o', file]);
    expect(r.exitCode).toBe(0);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x69]); // BOM, then "id"
    expect(bytes.indexOf(Buffer.from([0xef, 0xbb, 0xbf]), 1)).toBe(-1);
  });

  it('says it does nothing for json', async () => {
    const r = await leads(['--limit', '1', '--json', '--bom']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('[\n')).toBe(true);
    expect(r.stderr).toContain(
      'leadctl: warning: --bom applies to csv and tsv only: json is written without one\n',
    );
  });
});

describe('tables', () => {
  it('piped, fit COLUMNS and say which columns were hidden and how to pick them', async () => {
    const r = await leads(['--limit', '3', '-f', 'table'], { COLUMNS: '60' });
    expect(r.exitCode).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
    expect(r.stderr).toContain(
      'website, review_count, category, saved_at hidden at 60\ncolumns: pick with --fields.\n',
    );
  });

  it('label the time column with its zone', async () => {
    const r = await leads(['--limit', '2', '-f', 'table', '--fields', 'name,saved_at']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^name +saved_at \(UTC\)\n/);
    expect(r.stdout).toMatch(/ {2}\d{4}-\d\d-\d\d \d\d:\d\d\n/);
  });
});

describe('the next-page hint', () => {
  it('repeats --limit and --fields', async () => {
    const r = await leads(['--limit', '10', '--fields', 'name,phone', '--csv']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'Showing 1–10 of 60 leads (page 1 of 6). Next: --page 2 --limit 10 --fields name,phone, or --all.\n',
    );
  });
});

/** leadctl on a pseudo-terminal (util-linux `script`): what a person sees. */
async function onTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const quoted = [BIN, ...args, ...auth()].map((a) => `'${a}'`).join(' ');
  const r = await execa('script', ['-qec', `stty cols 200; node ${quoted}`, '/dev/null'], {
    reject: false,
    env: { XDG_CONFIG_HOME: home, PATH: process.env.PATH, TERM: 'xterm-256color', ...env },
  });
  expect(r.exitCode).toBe(0);
  return String(r.stdout).replaceAll('\r\n', '\n');
}

describe('json', () => {
  it('on a terminal: indented and coloured', async () => {
    const screen = await onTerminal(['leads', '--limit', '1', '--json', '--fields', 'name,rating', '-q']);
    expect(screen).toMatch(
      /^\[\n {2}\{\n {4}\x1b\[1;34m"name"\x1b\[0m: \x1b\[32m"[^"]+"\x1b\[0m,\n {4}\x1b\[1;34m"rating"\x1b\[0m: [\d.]+\n {2}\}\n\]\n?$/,
    );
  });

  it('on a terminal with NO_COLOR: indented, without colour', async () => {
    const screen = await onTerminal(['leads', '--limit', '1', '--json', '--fields', 'name,rating', '-q'], {
      NO_COLOR: '1',
    });
    expect(screen).toMatch(/^\[\n {2}\{\n {4}"name": "[^"]+",\n {4}"rating": [\d.]+\n {2}\}\n\]\n?$/);
  });

  it('piped: one compact item per line, as before', async () => {
    const r = await leads(['--limit', '2', '--json', '--fields', 'name,rating']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^\[\n\{"name":"[^"]+","rating":[\d.]+\},\n\{"name":"[^"]+","rating":[\d.]+\}\n\]\n$/,
    );
  });
});
