// --format xlsx: a workbook read back with an independent reader (test/helpers/xlsx-read.ts, not
// exceljs): typed cells (E.164 phones, ZIPs and ids as text, numbers as numbers), website hyperlinks,
// the bold frozen header with its autofilter, every row of an --all export, inert header formulas,
// and the refusals (--append, a terminal).
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { runInPty, stripAnsi } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';
import { readWorkbook } from '../helpers/xlsx-read.js';

const TOTAL = 250;
const lead = (n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Lead ${n}`,
  address: `${n} Main St, Boston, MA 02134`,
  phone: `+1512555${String(n).padStart(4, '0')}`,
  website: n === 2 ? null : `https://lead${n}.example.com/?a=1&b=2`,
  rating: 4.5,
  review_count: n,
  category: 'Plumber',
  saved_at: '2026-11-20T10:00:00Z',
});

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
  server.route('GET', '/api/v1/leads', (res, request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 25);
    const leads = [];
    for (let n = (page - 1) * limit + 1; n <= Math.min(TOTAL, page * limit); n += 1) leads.push(lead(n));
    const meta = { page, limit, total: TOTAL, totalPages: Math.ceil(TOTAL / limit) };
    json(200, { leads, meta })(res, request, () => {});
  });
});
afterEach(() => server.close());

/** stdout as bytes: an xlsx is binary. */
async function run(args: string[]) {
  const result = await spawnCli([...args, '--base-url', server.baseUrl, '--api-key', 'k', '--retries', '0'], {
    env: { XDG_CONFIG_HOME: tempDir('config') },
    stdin: 'ignore',
    encoding: 'buffer',
  });
  return {
    exitCode: result.exitCode,
    stdout: Buffer.from(result.stdout as Uint8Array),
    stderr: Buffer.from(result.stderr as Uint8Array).toString(),
  };
}

describe('xlsx output', () => {
  it('leads --all -o leads.xlsx: typed cells, hyperlinks, a frozen bold header with a filter, every row', async () => {
    const file = join(tempDir('xlsx'), 'leads.xlsx');
    const { exitCode, stderr } = await run(['leads', '--all', '-o', file]);
    // Nothing else: no deprecation warning from the bundled zip library (scripts/build-plugins.mjs).
    expect(stderr).toBe(`Wrote ${TOTAL} leads to ${file} (${server.requests.length} requests).\n`);
    expect(exitCode).toBe(0);
    const sheet = readWorkbook(readFileSync(file));
    expect(sheet.rows).toHaveLength(1 + TOTAL);
    const [header, first, second] = sheet.rows;
    expect(header?.map((cell) => [cell.value, cell.type])).toEqual(
      ['id', 'name', 'address', 'phone', 'website', 'rating', 'review_count', 'category', 'saved_at'].map(
        (name) => [name, 'inlineStr'],
      ),
    );
    expect(header?.every((cell) => cell.style !== undefined)).toBe(true);
    expect(sheet.boldFont).toBe(true);
    expect(sheet.pane).toEqual({ state: 'frozen', ySplit: '1' });
    expect(sheet.autoFilter).toBe('A1:I1');
    const byColumn = (row: typeof first, column: string) => row?.find((cell) => cell.ref.startsWith(column));
    // The E.164 phone and the ZIP code stay text: never the number 15125550001.
    expect(byColumn(first, 'D')).toMatchObject({ type: 'inlineStr', value: '+15125550001', formula: false });
    expect(byColumn(first, 'C')).toMatchObject({ type: 'inlineStr', value: '1 Main St, Boston, MA 02134' });
    expect(byColumn(first, 'F')).toMatchObject({ type: undefined, value: '4.5' });
    expect(byColumn(first, 'G')).toMatchObject({ type: undefined, value: '1' });
    expect(byColumn(first, 'E')?.value).toBe('https://lead1.example.com/?a=1&b=2');
    expect(sheet.hyperlinks.get('E2')).toBe('https://lead1.example.com/?a=1&b=2');
    // A null website is an empty cell, and no link.
    expect(byColumn(second, 'E')).toBeUndefined();
    expect(sheet.hyperlinks.has('E3')).toBe(false);
    expect(sheet.hyperlinks.size).toBe(TOTAL - 1);
    // Widths fit the content: the address column is wider than the rating column.
    const width = (column: number) =>
      sheet.widths.find((col) => col.min <= column && column <= col.max)?.width;
    expect(width(3)).toBeGreaterThan(25);
    expect(width(1)).toBeGreaterThanOrEqual(36);
  });

  it('a server key that is a formula stays a text header cell; 64-bit ids keep their digits as text', async () => {
    const evil = '=HYPERLINK("http://evil.example","x")';
    const body =
      `{"leads":[{"id":9007199254740993,"${evil.replaceAll('"', '\\"')}":"@SUM(A1)","rating":4.50,` +
      `"small":12345,"flag":true,"nested":{"a":1}}],"meta":{"page":1,"limit":25,"total":1,"totalPages":1}}`;
    server.route('GET', '/api/v1/leads', json(200, body));
    const file = join(tempDir('xlsx'), 'odd.xlsx');
    const { exitCode } = await run(['leads', '--fields', 'all', '-o', file]);
    expect(exitCode).toBe(0);
    const [header, row] = readWorkbook(readFileSync(file)).rows;
    expect(header?.map((cell) => cell.value)).toEqual(['id', evil, 'rating', 'small', 'flag', 'nested']);
    expect(header?.every((cell) => cell.type === 'inlineStr' && !cell.formula)).toBe(true);
    expect(row?.map((cell) => [cell.value, cell.type ?? 'n'])).toEqual([
      ['9007199254740993', 'inlineStr'],
      ['@SUM(A1)', 'inlineStr'],
      ['4.5', 'n'],
      ['12345', 'n'],
      ['1', 'b'],
      ['{"a":1}', 'inlineStr'],
    ]);
  });

  it('--fields and --no-header: only those columns, no header row, nothing frozen', async () => {
    const file = join(tempDir('xlsx'), 'short.xlsx');
    const { exitCode } = await run(['leads', '--fields', 'phone,rating', '--no-header', '-o', file]);
    expect(exitCode).toBe(0);
    const sheet = readWorkbook(readFileSync(file));
    expect(sheet.rows).toHaveLength(25);
    expect(sheet.rows[0]?.map((cell) => cell.value)).toEqual(['+15125550001', '4.5']);
    expect(sheet.pane).toBeUndefined();
    expect(sheet.autoFilter).toBeUndefined();
  });

  it('piped stdout gets the workbook; --append is refused with a usage error', async () => {
    const piped = await run(['leads', '-f', 'xlsx']);
    expect(piped.exitCode).toBe(0);
    const bytes = piped.stdout;
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(readWorkbook(bytes).rows).toHaveLength(26);

    const file = join(tempDir('xlsx'), 'more.xlsx');
    const appended = await run(['leads', '--append', '-o', file]);
    expect(appended.exitCode).toBe(2);
    expect(appended.stderr).toMatch(/^leadctl: --append works with csv, tsv and ndjson, not xlsx\n/);
    expect(server.requests).toHaveLength(1);
  });

  it('a terminal gets no binary: a usage error with the way to a file, before any request', async () => {
    const terminal = runInPty(['leads', '-f', 'xlsx', '--base-url', server.baseUrl, '--api-key', 'k'], {
      env: { XDG_CONFIG_HOME: tempDir('config') },
    });
    const { exitCode, output } = await terminal.exited;
    expect(exitCode).toBe(2);
    expect(stripAnsi(output).replaceAll('\r\n', '\n')).toBe(
      'leadctl: xlsx is a binary file and is not written to a terminal\n' +
        'write it to a file with -o leads.xlsx (or pipe stdout: ... > leads.xlsx)\n',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a batch writes one workbook of every search result', async () => {
    const sandbox = await startSandbox({ seed: 5 });
    try {
      const dir = tempDir('xlsx-batch');
      const input = join(dir, 'searches.csv');
      await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');
      const file = join(dir, 'out.xlsx');
      const { exitCode, stderr } = await runCli(
        ['search', '--input', input, '-o', file, '--base-url', sandbox.url, '--api-key', sandbox.apiKey],
        { env: { XDG_CONFIG_HOME: tempDir('config') } },
      );
      expect(exitCode).toBe(0);
      const results = Number(/; (\d+) results/.exec(stderr)?.[1]);
      const [header, ...rows] = readWorkbook(readFileSync(file)).rows;
      expect(header?.slice(0, 3).map((cell) => cell.value)).toEqual([
        'search_query',
        'search_location',
        'place_id',
      ]);
      expect(rows).toHaveLength(results);
      expect(results).toBeGreaterThan(0);
      // Cells are found by their reference: an empty cell is not written at all.
      const lat = String.fromCharCode(65 + (header?.findIndex((cell) => cell.value === 'lat') as number));
      const lats = rows.map((row) => row.find((cell) => cell.ref.replace(/\d+$/, '') === lat));
      expect(lats.every((cell) => cell?.type === undefined && Math.abs(Number(cell?.value)) <= 90)).toBe(
        true,
      );
    } finally {
      await sandbox.close();
    }
  });
});
