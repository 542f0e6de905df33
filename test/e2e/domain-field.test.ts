// The derived `domain` field (the registrable domain of `website`) in every format, in --where, and in
// --exclude matching, read back from where it is used: csv through an independent reader, xlsx through
// its own zip and XML, json and geojson parsed, the table as shown. In-process: no process is the point.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';
import { readWorkbook } from '../helpers/xlsx-read.js';

let server: FakeServer;
const RESULTS = [
  { place_id: 'p1', name: 'Shop UK', website: 'https://www.shop.example.co.uk/x', lat: 51.5, lng: -0.12 },
  { place_id: 'p2', name: 'Joe', website: 'http://joes.wordpress.com', lat: 30.2, lng: -97.7 },
  { place_id: 'p3', name: 'No site', website: null, lat: 30.3, lng: -97.8 },
  { place_id: 'p4', name: 'Odd', website: 'n/a', lat: 30.4, lng: -97.9 },
];
const DOMAINS = ['example.co.uk', 'joes.wordpress.com', '', ''];

beforeAll(async () => {
  server = await startFakeServer();
  server.route(
    'POST',
    '/api/v1/search',
    json(200, { query: 'q', location: 'l', count: 4, results: RESULTS }),
  );
});
afterAll(() => server.close());

const search = (args: string[], env: Record<string, string> = {}) =>
  runCli(['search', 'q', '-l', 'l', ...args, '--base-url', server.baseUrl, '--api-key', 'k-test'], {
    env,
  });

describe('--fields domain in every format', () => {
  it('csv and tsv: a column a reader reads back', async () => {
    const csv = await search(['--csv', '--fields', 'name,domain']);
    expect(csv.exitCode).toBe(0);
    expect(parseCsv(csv.stdout)).toEqual([
      ['name', 'domain'],
      ...RESULTS.map((r, i) => [r.name, DOMAINS[i]]),
    ]);
    const tsv = await search(['-f', 'tsv', '--fields', 'domain:Company domain name']);
    expect(tsv.stdout).toBe(`Company domain name\n${DOMAINS.join('\n')}\n`);
  });

  it('json and ndjson: the key, null where there is no domain', async () => {
    const expected = RESULTS.map((r, i) => ({ name: r.name, domain: DOMAINS[i] || null }));
    expect(JSON.parse((await search(['--json', '--fields', 'name,domain'])).stdout)).toEqual(expected);
    const ndjson = await search(['-f', 'ndjson', '--fields', 'name,domain']);
    expect(
      ndjson.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(expected);
  });

  it('json without --fields keeps the server shape: no domain key added', async () => {
    const items = JSON.parse((await search(['--json'])).stdout) as Record<string, unknown>[];
    expect(items.map((item) => Object.keys(item))).toEqual(RESULTS.map((r) => Object.keys(r)));
  });

  it('geojson: a property', async () => {
    const collection = JSON.parse((await search(['-f', 'geojson', '--fields', 'name,domain'])).stdout);
    expect(collection.features.map((f: { properties: unknown }) => f.properties)).toEqual(
      RESULTS.map((r, i) => ({ name: r.name, domain: DOMAINS[i] || null })),
    );
  });

  it('xlsx: a text column', async () => {
    const file = join(tempDir('domain'), 'out.xlsx');
    expect((await search(['-o', file, '--fields', 'name,domain'])).exitCode).toBe(0);
    const sheet = readWorkbook(await readFile(file));
    expect(sheet.rows.map((row) => row.map((cell) => cell.value))).toEqual([
      ['name', 'domain'],
      ...RESULTS.map((r, i) => (DOMAINS[i] ? [r.name, DOMAINS[i]] : [r.name])),
    ]);
  });

  it('table: a column', async () => {
    const table = await search(['-f', 'table', '--fields', 'name,domain'], { COLUMNS: '80' });
    expect(table.stdout.split('\n').slice(0, 3)).toEqual([
      'name     domain',
      'Shop UK  example.co.uk',
      'Joe      joes.wordpress.com',
    ]);
  });
});

describe('--where domain', () => {
  it('compares the registrable domain, and a bare domain keeps items that have one', async () => {
    const equal = await search(['--json', '--where', 'domain=example.co.uk']);
    expect((JSON.parse(equal.stdout) as { place_id: string }[]).map((r) => r.place_id)).toEqual(['p1']);
    const present = await search(['--json', '--where', 'domain']);
    expect((JSON.parse(present.stdout) as { place_id: string }[]).map((r) => r.place_id)).toEqual([
      'p1',
      'p2',
    ]);
  });
});

describe('--exclude matches by registrable domain', () => {
  const excluding = async (csv: string) => {
    const list = join(tempDir('exclude'), 'crm.csv');
    await writeFile(list, csv);
    const result = await search(['--json', '--exclude', list]);
    expect(result.exitCode).toBe(0);
    return (JSON.parse(result.stdout) as { place_id: string }[]).map((r) => r.place_id);
  };

  it("reads a HubSpot export's Company Domain Name and Website URL", async () => {
    expect(await excluding('Name,Company Domain Name\nShop,example.co.uk\n')).toEqual(['p2', 'p3', 'p4']);
    expect(await excluding('Website URL\nhttps://joes.wordpress.com/\n')).toEqual(['p1', 'p3', 'p4']);
  });

  it('matches another host of the same domain, but never on a shared host', async () => {
    expect(await excluding('website\nhttps://austin.example.co.uk/\n')).toEqual(['p2', 'p3', 'p4']);
    expect(await excluding('website\nhttps://ann.wordpress.com\nhttps://www.facebook.com/joe\n')).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
    ]);
  });
});
