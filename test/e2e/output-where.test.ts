// --where: rows filtered before output in every format, --max-items counting what is written, the
// closing line saying how many were left out, bad conditions refused before any request, numbers
// compared with their exact digits, and a checkpoint that still moves past what was filtered out.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import {
  bentServerForTest,
  type FakeServer,
  honest,
  type Lead,
  startFakeServer,
  text,
} from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
let odd: FakeServer;
let home: string;

const run = (command: string[], args: string[]) =>
  runCli([...command, ...args, '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
    env: { XDG_CONFIG_HOME: home },
  });
const fromOdd = (args: string[]) =>
  runCli(['leads', ...args, '--base-url', odd.baseUrl, '--api-key', 'k-test'], {
    env: { XDG_CONFIG_HOME: home },
  });

// Raw JSON: 64-bit ids a double cannot tell apart, a rating sent as 4.50, accents and Greek.
const ODD_LEADS = `{"leads":[
 {"id":1790000000000000007,"name":"Café Zoë","rating":4.50,"website":""},
 {"id":1790000000000000008,"name":"ΟΔΟΣ Bakery","rating":4.49,"website":null},
 {"id":1790000000000000009,"name":"Straße Bau","rating":5,"website":"https://bau.example"}
],"meta":{"page":1,"limit":25,"total":3,"totalPages":1}}`;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 120, seed: 11 });
  home = await tempConfigHome();
  odd = await startFakeServer();
  odd.route('GET', '/api/v1/leads', text(200, ODD_LEADS, 'application/json'));
});
afterAll(async () => {
  await sandbox.close();
  await odd.close();
});

type Row = Record<string, unknown>;
const hasWebsite = (lead: Row) => typeof lead.website === 'string' && lead.website !== '';

describe('--where on leads', () => {
  it('keeps exactly the items every condition holds for, in json and csv alike', async () => {
    const all = JSON.parse((await run(['leads'], ['--all', '--json'])).stdout) as Row[];
    const expected = all.filter((lead) => Number(lead.rating) >= 4.5 && hasWebsite(lead));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);

    const json = await run(['leads'], ['--all', '--json', '--where', 'rating>=4.5', '--where', 'website']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(json.stderr).toContain(
      `Wrote ${expected.length} leads (${all.length - expected.length} filtered out by --where;`,
    );

    const csv = await run(
      ['leads'],
      ['--all', '--csv', '--fields', 'id', '--where', 'rating>=4.5', '--where', 'website'],
    );
    expect(parseCsv(csv.stdout).slice(1).flat()).toEqual(expected.map((lead) => String(lead.id)));
  });

  it('--max-items counts the items written, paging on until that many passed', async () => {
    const all = JSON.parse((await run(['leads'], ['--all', '--json'])).stdout) as Row[];
    const passing = all.filter((lead) => Number(lead.rating) >= 4.7);
    // More pass than --max-items, and the 4th of them is past the first page of 10: paging must go on.
    expect(passing.length).toBeGreaterThan(4);
    expect(all.indexOf(passing[3] as Row)).toBeGreaterThan(9);
    const result = await run(
      ['leads'],
      ['--max-items', '4', '--limit', '10', '--json', '--where', 'rating>=4.7'],
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(passing.slice(0, 4));
    expect(result.stderr).toMatch(/Wrote 4 leads \(\d+ filtered out by --where; \d+ requests?\)\./);
  });

  it('a single page says how many of it were filtered out, and the next page keeps --where', async () => {
    const result = await run(['leads'], ['--limit', '10', '--csv', '--where', 'rating>=4.5']);
    const rows = parseCsv(result.stdout).length - 1;
    expect(result.stderr).toContain(
      `--where 'rating>=4.5', or --all. ${10 - rows} of them filtered out by --where.`,
    );
  });

  it('nothing passing is an empty set, exit 0, and says so', async () => {
    const result = await run(['leads'], ['--all', '--json', '--where', 'name=nobody at all']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('[]\n');
    expect(result.stderr).toMatch(/No leads passed --where \(120 filtered out by --where; 2 requests\)\./);
  });
});

describe('--where compares values as sent', () => {
  it.each([
    ['id=1790000000000000008', ['ΟΔΟΣ Bakery']],
    ['id>1790000000000000007', ['ΟΔΟΣ Bakery', 'Straße Bau']],
    ['rating>=4.5', ['Café Zoë', 'Straße Bau']],
    ['rating=4.5', ['Café Zoë']],
    ['name~CAFÉ', ['Café Zoë']],
    ['name~οδος', ['ΟΔΟΣ Bakery']],
    ['name~STRASSE', ['Straße Bau']],
    ['website', ['Straße Bau']],
    ['!website', ['Café Zoë', 'ΟΔΟΣ Bakery']],
  ])('%s', async (condition, names) => {
    const result = await fromOdd(['--json', '--where', condition]);
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as Row[]).map((lead) => lead.name)).toEqual(names);
  });

  it('writes the kept items with their digits unchanged', async () => {
    const result = await fromOdd(['-f', 'ndjson', '--where', 'rating=4.5']);
    expect(result.stdout).toBe('{"id":1790000000000000007,"name":"Café Zoë","rating":4.50,"website":""}\n');
  });
});

describe('bad conditions', () => {
  it.each([
    [
      'rating=>4',
      'leadctl: invalid --where "rating=>4": the value starts with ">": quote it ("...") if that is meant',
    ],
    ['>4', 'leadctl: invalid --where ">4": no field name before the operator'],
    [
      'name="open',
      'leadctl: invalid --where "name=\\"open": a quoted value must end with " (write "" for a quote inside it)',
    ],
  ])('%s is exit 2 with the grammar, before any request', async (condition, line) => {
    const before = odd.requests.length;
    const result = await fromOdd(['--json', '--where', condition]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([line, expect.stringContaining('FIELD OP VALUE')]);
    expect(odd.requests.length).toBe(before);
  });

  it('a misspelt field is refused with a suggestion, nothing written', async () => {
    const result = await fromOdd(['--csv', '--where', 'ratng>=4']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'leadctl: unknown field in --where "ratng>=4": ratng (did you mean rating?)',
    );
  });
});

describe('--where on search and batch', () => {
  it('search: the results that pass, and the count left out', async () => {
    const all = JSON.parse((await run(['search', 'plumber', '-l', 'Austin'], ['--json'])).stdout) as Row[];
    const result = await run(['search', 'plumber', '-l', 'Austin'], ['--json', '--where', 'name~PLUMB']);
    const kept = all.filter((item) => String(item.name).toLowerCase().includes('plumb'));
    expect(JSON.parse(result.stdout)).toEqual(kept);
    if (kept.length < all.length)
      expect(result.stderr).toContain(`${all.length - kept.length} of them filtered out by --where.`);
  });

  it('batch: every search filtered, the summary counts what was left out', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');
    const result = await run(['search'], ['--input', input, '--json', '--where', 'rating>=4.7']);
    expect(result.exitCode).toBe(0);
    const items = JSON.parse(result.stdout) as Row[];
    for (const item of items) expect(Number(item.rating)).toBeGreaterThanOrEqual(4.7);
    expect(result.stderr).toMatch(
      new RegExp(`; ${items.length} results? \\(\\d+ filtered out by --where\\)`),
    );
  });
});

describe('--where with --checkpoint', () => {
  it('the checkpoint moves past filtered-out items: the next run writes only what is new', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const lead = (id: string, name: string): Lead => ({ id, name, saved_at: '2026-11-21T00:00:00.000Z' });
    const list: Lead[] = [lead('k1', 'keep'), lead('s1', 'skip'), lead('k2', 'keep'), lead('s2', 'skip')];
    const server = await bentServerForTest(list, (request, all) => honest(request, all));
    const runOn = (args: string[]) =>
      runCli(
        [
          'leads',
          '--checkpoint',
          ckpt,
          '--csv',
          '--fields',
          'id',
          ...args,
          '--base-url',
          server.baseUrl,
          '--api-key',
          'k',
        ],
        {
          env: { XDG_CONFIG_HOME: home },
        },
      );
    const first = await runOn(['--where', 'name=keep', '-o', join(dir, 'one.csv')]);
    expect(first.exitCode).toBe(0);
    expect(
      parseCsv(await readFile(join(dir, 'one.csv'), 'utf8'))
        .slice(1)
        .flat(),
    ).toEqual(['k1', 'k2']);
    list.unshift(lead('n1', 'new'));
    const second = await runOn(['-o', join(dir, 'two.csv')]);
    expect(second.exitCode).toBe(0);
    expect(
      parseCsv(await readFile(join(dir, 'two.csv'), 'utf8'))
        .slice(1)
        .flat(),
    ).toEqual(['n1']);
  });
});
