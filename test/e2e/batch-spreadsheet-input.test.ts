// search --input from what spreadsheets and CRMs really write: their own column names and extra
// columns (--columns, --ignore-extra), `;` and tab separators, a BOM, UTF-16 from Excel's "Unicode
// text", Windows-1252 refused with the fix, and .xlsx workbooks. Each case checks the searches the
// sandbox received, not only what was printed.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox() {
  const s = await startSandbox({ seed: 7 });
  sandboxes.push(s);
  return s;
}
const run = (s: SandboxHandle, args: string[], input?: string | Buffer) =>
  runCli(['search', ...args, '--base-url', s.url, '--api-key', s.apiKey], {
    env: { XDG_CONFIG_HOME: tempDir('batch-home') },
    ...(input === undefined ? {} : { input }),
  });
/** The searches the server received, as sent. */
const searches = (s: SandboxHandle) =>
  s.requests.filter((r) => r.path === '/api/v1/search').map((r) => r.body);
/** The same, in a stable order: concurrency may send them in any order. */
const sortedSearches = (s: SandboxHandle) =>
  searches(s).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function inputFile(name: string, content: string | Buffer): Promise<string> {
  const file = join(tempDir('batch-in'), name);
  await writeFile(file, content);
  return file;
}

/** A HubSpot-like contacts export: its own names for the two columns a search needs, and others. */
const HUBSPOT = [
  'First Name,Last Name,Company Name,Industry,City,Notes',
  'Ana,Lopez,Lopez Plumbing,plumber,Austin,"called twice; no answer"',
  'Bo,Kim,Kim Roofs,roofer,Dallas,',
].join('\r\n');

describe('--columns and --ignore-extra', () => {
  it('refuses an export with extra columns, naming them and both flags; searches nothing', async () => {
    const s = await sandbox();
    const file = await inputFile('contacts.csv', HUBSPOT);
    const result = await run(s, ['--input', file, '--columns', 'query=Industry,location=City', '--csv']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      `leadctl: ${file}: unknown columns "First Name", "Last Name", "Company Name", "Notes" in the header (expected query, location, radius); nothing was searched`,
      'map your headers with --columns query=Trade,location=City,radius=Miles, or skip the other columns with --ignore-extra',
      '',
    ]);
    expect(searches(s)).toEqual([]);
  });

  it('maps the headers and skips the others with --ignore-extra, saying which', async () => {
    const s = await sandbox();
    const file = await inputFile('contacts.csv', HUBSPOT);
    const args = ['--input', file, '--columns', 'query=industry,location=CITY', '--ignore-extra'];
    const result = await run(s, [...args, '--csv', '--fields', 'search_query,search_location']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `Ignoring 4 columns of ${file}, as --ignore-extra asks: "First Name", "Last Name", "Company Name", "Notes".`,
    );
    expect(sortedSearches(s)).toEqual([
      { query: 'plumber', location: 'Austin' },
      { query: 'roofer', location: 'Dallas' },
    ]);
    expect(result.stdout.split('\r\n').slice(0, 2)).toEqual([
      'search_query,search_location',
      'plumber,Austin',
    ]);
  });

  it('refuses a misspelt known column even with --ignore-extra, and a --columns header the file lacks', async () => {
    const s = await sandbox();
    const file = await inputFile('typo.csv', 'query,location,raduis,notes\nplumber,Austin,5,x\n');
    const typo = await run(s, ['--input', file, '--ignore-extra']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain(
      `leadctl: ${file}: unknown column "raduis" in the header (did you mean "radius"?); nothing was searched\n`,
    );
    const missing = await run(s, ['--input', file, '--columns', 'radius=radis', '--ignore-extra']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(
      '--columns radius=radis: the header has no column "radis" (did you mean "raduis"?)',
    );
    const target = await run(s, ['--input', file, '--columns', 'raduis=raduis']);
    expect(target.exitCode).toBe(2);
    expect(target.stderr).toContain('leadctl: --columns: unknown column "raduis"; did you mean "radius"?');
    expect(searches(s)).toEqual([]);
  });

  it('--columns without --input is a usage error', async () => {
    const s = await sandbox();
    const result = await run(s, ['plumber', '-l', 'Austin', '--columns', 'query=Trade']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--columns only applies to a batch (--input)');
  });

  it('dry-run and --resume read the input the same way: the resume command repeats the flags', async () => {
    const dir = tempDir('batch-resume');
    const file = join(dir, 'contacts.csv');
    await writeFile(file, `${HUBSPOT}\r\nCy,Li,Li Dental,dentist,Waco,\r\n`);
    const out = join(dir, 'out.csv');
    const args = ['--input', file, '--columns', 'query=Industry,location=City', '--ignore-extra'];

    const dry = await run(await sandbox(), [...args, '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toContain(`${file}: 3 searches, 0 skipped as duplicate.`);

    const first = await sandbox();
    const stopped = await run(first, [...args, '-o', out, '--csv', '--max-requests', '1']);
    expect(stopped.exitCode).toBe(5);
    expect(searches(first)).toHaveLength(1);
    const resumeLine = stopped.stderr.split('\n').find((line) => line.includes('continue with: '));
    expect(resumeLine).toContain(
      `leadctl search --input ${file} --columns query=Industry,location=City --ignore-extra -o ${out} --resume`,
    );
    const second = await sandbox();
    const resumed = await run(second, [...args, '-o', out, '--csv', '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(sortedSearches(second)).toEqual([
      { query: 'dentist', location: 'Waco' },
      { query: 'roofer', location: 'Dallas' },
    ]);

    const whole = join(dir, 'whole.csv');
    expect((await run(await sandbox(), [...args, '-o', whole, '--csv'])).exitCode).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(await readFile(whole, 'utf8'));
  });
});

describe('separators and encodings', () => {
  it('reads a ;-separated file from European Excel, with commas inside its queries', async () => {
    const s = await sandbox();
    const file = await inputFile(
      'eu.csv',
      'query;location;radius\r\nplumber, drains;Köln;5\r\nroofer;Lyon;\r\n',
    );
    const result = await run(s, ['--input', file, '--format', 'ndjson']);
    expect(result.exitCode).toBe(0);
    expect(sortedSearches(s)).toEqual([
      { query: 'plumber, drains', location: 'Köln', radius: 5 },
      { query: 'roofer', location: 'Lyon' },
    ]);
  });

  it('keeps a comma file a comma file when its queries hold semicolons', async () => {
    const s = await sandbox();
    const file = await inputFile(
      'comma.csv',
      'query,location\nplumber;drains;24h;emergency;repair,Austin\n"a;b",Waco\n',
    );
    const result = await run(s, ['--input', file, '--format', 'ndjson']);
    expect(result.exitCode).toBe(0);
    expect(sortedSearches(s)).toEqual([
      { query: 'a;b', location: 'Waco' },
      { query: 'plumber;drains;24h;emergency;repair', location: 'Austin' },
    ]);
  });

  it('reads UTF-16 LE and BE with a byte-order mark, tab-separated (Excel "Unicode text")', async () => {
    const text = 'query\tlocation\tradius\r\nplumber\tMontréal\t5\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    for (const bytes of [le, be]) {
      const s = await sandbox();
      const result = await run(s, ['--input', await inputFile('unicode.txt', bytes), '--json']);
      expect(result.exitCode).toBe(0);
      expect(searches(s)).toEqual([{ query: 'plumber', location: 'Montréal', radius: 5 }]);
    }
  });

  it('skips a UTF-8 byte-order mark before the header (Excel "CSV UTF-8")', async () => {
    const s = await sandbox();
    const file = await inputFile('bom.csv', '\uFEFFQuery;Location\r\nbäcker;Zürich\r\n');
    const result = await run(s, ['--input', file, '--json']);
    expect(result.exitCode).toBe(0);
    expect(searches(s)).toEqual([{ query: 'bäcker', location: 'Zürich' }]);
  });

  it('refuses Windows-1252 from an old Excel with the fix, and UTF-16 without its mark', async () => {
    const s = await sandbox();
    const cp1252 = await inputFile('old.csv', Buffer.from('query;location\nplumber;Montr\xe9al\n', 'latin1'));
    const result = await run(s, ['--input', cp1252, '--csv']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      `leadctl: ${cp1252} is not UTF-8 text (line 2); nothing was searched`,
      'in Excel: File > Save As > "CSV UTF-8 (Comma delimited)"; or: iconv -f windows-1252 -t utf-8 in.csv > in-utf8.csv',
      '',
    ]);
    const bare16 = await inputFile('bare.txt', Buffer.from('query\tlocation\r\na\tb\r\n', 'utf16le'));
    const utf16 = await run(s, ['--input', bare16]);
    expect(utf16.exitCode).toBe(2);
    expect(utf16.stderr).toContain('holds NUL bytes: UTF-16 without a byte-order mark?');
    expect(searches(s)).toEqual([]);
  });
});

describe('--input leads.xlsx', () => {
  /** A workbook as a user keeps one: their own headers, a ZIP typed as a number, an empty row. */
  async function workbook(): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Leads');
    sheet.addRow(['Trade', 'Zip', 'Miles', 'Owner']);
    sheet.addRow(['plumber', 2134, 10, 'Ana']);
    sheet.getCell('B2').numFmt = '00000';
    sheet.addRow([]);
    sheet.addRow(['roofer', '78701', null, { text: 'Bo', hyperlink: 'mailto:bo@example.com' }]);
    sheet.addRow(['dentist', 'Waco', { formula: '2*3', result: 6 }]);
    book.addWorksheet('Not this one').addRow(['query', 'location']);
    return Buffer.from(await book.xlsx.writeBuffer());
  }

  it('reads the first sheet, cells as the sheet shows them, empty rows skipped', async () => {
    const s = await sandbox();
    const file = await inputFile('leads.xlsx', await workbook());
    const args = ['--input', file, '--columns', 'query=Trade,location=Zip,radius=Miles', '--ignore-extra'];
    const result = await run(s, [...args, '--csv', '--concurrency', '1']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Ignoring a column of ${file}, as --ignore-extra asks: "Owner".`);
    expect(searches(s)).toEqual([
      { query: 'plumber', location: '02134', radius: 10 },
      { query: 'roofer', location: '78701' },
      { query: 'dentist', location: 'Waco', radius: 6 },
    ]);
  });

  it('reads a workbook from standard input too, and names bad rows by their row number', async () => {
    const s = await sandbox();
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('S');
    sheet.addRow(['query', 'location', 'radius']);
    sheet.addRow(['plumber', 'Austin', 5]);
    sheet.addRow(['roofer', 'Dallas', 99]);
    const result = await run(s, ['--input', '-', '--csv'], Buffer.from(await book.xlsx.writeBuffer()));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('line 3: radius must be a whole number from 1 to 50 (found "99")');
    expect(searches(s)).toEqual([]);
  });

  it('refuses a file that is not a workbook it can read, and an old .xls, with the fix', async () => {
    const s = await sandbox();
    const broken = await inputFile('broken.xlsx', Buffer.from('PK\x03\x04 not really a zip', 'latin1'));
    const result = await run(s, ['--input', broken]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`leadctl: cannot read ${broken} as an Excel workbook`);
    const xls = await inputFile('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]));
    const old = await run(s, ['--input', xls]);
    expect(old.exitCode).toBe(2);
    expect(old.stderr).toContain('is an old Excel .xls workbook');
    expect(searches(s)).toEqual([]);
  });
});
