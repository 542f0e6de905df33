import { describe, expect, it } from 'vitest';
import { type CsvRecord, csvRecords, detectDelimiter } from '../../src/batch/csv-records.js';
import { entriesFromRecords, type InputRow, parseColumnsFlag } from '../../src/batch/input-parse.js';
import { parsed } from '../helpers/batch-input.js';

/** Every record of a text, as csvRecords finds them when it comes in these pieces. */
async function recordsOf(...pieces: string[]): Promise<CsvRecord[]> {
  async function* texts() {
    yield* pieces;
  }
  const records: CsvRecord[] = [];
  for await (const batch of csvRecords(texts(), ',')) records.push(...batch);
  return records;
}

const UNCLOSED = 'a quoted field is never closed (missing ")';

describe('csvRecords', () => {
  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', async () => {
    expect(await recordsOf('a,b\r\n"x, y","say ""hi"""\r\n"two\nlines",z\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'z'] },
    ]);
  });

  it('numbers records by the line they start on, after a multi-line field', async () => {
    expect((await recordsOf('h\n"1\n2\n3"\nnext')).map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('skips a byte-order mark and needs no final line break', async () => {
    expect(await recordsOf('\uFEFFquery\nplumber')).toEqual([
      { line: 1, fields: ['query'] },
      { line: 2, fields: ['plumber'] },
    ]);
  });

  it('reports a quote that never closes with the line it opened on', async () => {
    expect((await recordsOf('a\n"open\nmore')).at(-1)).toEqual({ line: 2, fields: [], problem: UNCLOSED });
  });

  it('counts a quoted CRLF as one line, and reads LF, CRLF and CR endings mixed in one file', async () => {
    expect(await recordsOf('h\r\n"a\r\nb",x\nc\rd\r\n\ne')).toEqual([
      { line: 1, fields: ['h'] },
      { line: 2, fields: ['a\r\nb', 'x'] },
      { line: 4, fields: ['c'] },
      { line: 5, fields: ['d'] },
      { line: 6, fields: [''] },
      { line: 7, fields: ['e'] },
    ]);
  });

  it('keeps the records before a quote that never closes', async () => {
    expect(await recordsOf('h\nok\n"open\nmore')).toEqual([
      { line: 1, fields: ['h'] },
      { line: 2, fields: ['ok'] },
      { line: 3, fields: [], problem: UNCLOSED },
    ]);
  });
});

describe('csvRecords: read as the text comes', () => {
  it('numbers records and reports an unclosed quote the same when the text comes one character at a time', async () => {
    const text = 'h\r\n"a\r\nb",x\nc\rd\r\n\ne\n"open\nmore';
    expect(await recordsOf(...text)).toEqual(await recordsOf(text));
    expect((await recordsOf(...text)).at(-1)).toEqual({ line: 8, fields: [], problem: UNCLOSED });
  });

  it('refuses a record longer than 1 MiB (an endless line) as a bad row, and reads no further', async () => {
    async function* endless() {
      yield 'query,location\n';
      for (;;) yield 'x'.repeat(65536);
    }
    const records: CsvRecord[] = [];
    for await (const batch of csvRecords(endless(), ',')) records.push(...batch);
    expect(records).toEqual([
      { line: 1, fields: ['query', 'location'] },
      { line: 2, fields: [], problem: expect.stringMatching(/^a row longer than 1 MiB/) },
    ]);
  });
});

describe('reading CSV', () => {
  it('matches header names trimmed and case-insensitively, in any order, and skips blank lines', async () => {
    const read = await parsed(' Location , QUERY,radius\n\nAustin,plumber,5\nDallas,roofer,\n');
    expect(read.problems).toEqual([]);
    expect(read.entries).toEqual([
      { line: 3, values: { location: 'Austin', query: 'plumber', radius: '5' } },
      { line: 4, values: { location: 'Dallas', query: 'roofer', radius: '' } },
    ]);
  });

  it('refuses unknown columns (a misspelt radius would silently search the wrong radius)', async () => {
    await expect(parsed('query,location,notes\nplumber,Austin,5\n')).rejects.toThrowError(
      'unknown column "notes" in the header (expected query, location, radius)',
    );
    await expect(parsed('query,location,raduis\nplumber,Austin,5\n')).rejects.toThrowError(
      'unknown column "raduis" in the header (did you mean "radius"?)',
    );
  });

  it('refuses a header without query or location', async () => {
    await expect(parsed('query,radius\nplumber,5\n')).rejects.toThrowError(/no "location" column/);
  });

  it('reports rows with the wrong number of fields and keeps the others', async () => {
    const read = await parsed('query,location\nplumber,Austin\nroofer,Dallas,TX\n');
    expect(read.entries).toHaveLength(1);
    expect(read.problems).toEqual([{ line: 3, message: 'expected 2 fields like the header, found 3' }]);
  });

  it('gives no entries for an empty file', async () => {
    expect(await parsed('')).toEqual({ entries: [], problems: [], ignored: [] });
  });
});

describe('reading JSON lines', () => {
  it('is chosen when the first non-blank character is {', async () => {
    const read = await parsed(
      '\n  {"query":"plumber","location":"Austin"}\n\n{"Query":"roofer","location":"Dallas","radius":5}\n',
    );
    expect(read.entries).toEqual([
      { line: 2, values: { query: 'plumber', location: 'Austin' } },
      { line: 4, values: { query: 'roofer', location: 'Dallas', radius: 5 } },
    ]);
  });

  it('reports bad JSON, non-objects and unknown keys by line', async () => {
    const read = await parsed(
      '{"query":"a","location":"b"}\n{oops\n[1]\n{"query":"a","location":"b","zip":1}\n',
    );
    expect(read.entries).toHaveLength(1);
    expect(read.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(read.problems[0]?.message).toBe('not valid JSON');
    expect(read.problems[2]?.message).toMatch(/unknown key "zip"/);
  });
});

const rules = (columns?: string, ignoreExtra = false) => ({
  mapped: parseColumnsFlag(columns),
  ignoreExtra,
});

describe('detectDelimiter', () => {
  it('judges by the header line: comma, semicolon (European Excel) or tab', () => {
    expect(detectDelimiter('query,location\nplumber,Austin').delimiter).toBe(',');
    expect(detectDelimiter('\uFEFFquery;location;radius\r\nplumber;Austin;5').delimiter).toBe(';');
    expect(detectDelimiter('query\tlocation\nplumber\tAustin').delimiter).toBe('\t');
  });

  it('is not misled by semicolons in the rows of a comma file, or by quoted separators', () => {
    expect(detectDelimiter('query,location\n"a;b;c";x;y;z\n').delimiter).toBe(',');
    expect(detectDelimiter('"Trade, main";City\nplumber;Austin').delimiter).toBe(';');
    expect(detectDelimiter('\n\nquery;location\n').delimiter).toBe(';');
    expect(detectDelimiter('query\n').delimiter).toBe(',');
  });
});

describe('--columns and --ignore-extra', () => {
  it('maps the input’s headers to the known columns, without case', async () => {
    const read = await parsed(
      'Trade,CITY,Miles\nplumber,Austin,5\n',
      rules('query=trade,location=City,radius=miles'),
    );
    expect(read.entries).toEqual([
      { line: 2, values: { query: 'plumber', location: 'Austin', radius: '5' } },
    ]);
  });

  it('reads a semicolon file whose queries hold commas', async () => {
    const read = await parsed('query;location\nplumber, drains;Austin\n');
    expect(read.entries).toEqual([{ line: 2, values: { query: 'plumber, drains', location: 'Austin' } }]);
  });

  it('refuses other columns unless --ignore-extra, which names them', async () => {
    const text = 'query,location,company,notes\nplumber,Austin,Acme,call\n';
    await expect(parsed(text)).rejects.toThrowError(
      'unknown columns "company", "notes" in the header (expected query, location, radius)',
    );
    const read = await parsed(text, rules(undefined, true));
    expect(read.ignored).toEqual(['company', 'notes']);
    expect(read.entries).toEqual([{ line: 2, values: { query: 'plumber', location: 'Austin' } }]);
  });

  it('refuses a misspelt known column even with --ignore-extra, unless it is mapped', async () => {
    await expect(parsed('query,location,raduis\na,b,5\n', rules(undefined, true))).rejects.toThrowError(
      /"raduis" in the header \(did you mean "radius"\?\)/,
    );
    await expect(parsed('qeury,location\na,b\n', rules(undefined, true))).rejects.toThrowError(
      /did you mean "query"/,
    );
    const mapped = await parsed('query,location,raduis\na,b,5\n', rules('radius=raduis'));
    expect(mapped.entries[0]?.values).toEqual({ query: 'a', location: 'b', radius: '5' });
  });

  it('a known name that --columns fills from elsewhere is an extra column', async () => {
    const text = 'query,location,City\nplumber,Texas,Austin\n';
    await expect(parsed(text, rules('location=City'))).rejects.toThrowError(/unknown column "location"/);
    const read = await parsed(text, rules('location=City', true));
    expect(read.entries[0]?.values).toEqual({ query: 'plumber', location: 'Austin' });
  });

  it('refuses a --columns header the input lacks, with a did-you-mean', async () => {
    await expect(parsed('Trade,City\na,b\n', rules('query=Trade,location=Cty'))).rejects.toThrowError(
      '--columns location=Cty: the header has no column "Cty" (did you mean "City"?)',
    );
  });

  it('maps and skips JSON keys the same way', async () => {
    const text = '{"Trade":"plumber","City":"Austin","owner":"x"}\n{"Trade":"roofer","City":"Waco"}\n';
    expect((await parsed(text, rules('query=Trade,location=City'))).problems[0]?.message).toMatch(
      /unknown key "owner" .*--ignore-extra/,
    );
    const read = await parsed(text, rules('query=Trade,location=City', true));
    expect(read.ignored).toEqual(['owner']);
    expect(read.entries.map((e) => e.values)).toEqual([
      { query: 'plumber', location: 'Austin' },
      { query: 'roofer', location: 'Waco' },
    ]);
  });
});

describe('parseColumnsFlag', () => {
  it('refuses an unknown target with a did-you-mean, a pair without =, and a target given twice', () => {
    expect(() => parseColumnsFlag('qurey=Trade')).toThrowError(
      '--columns: unknown column "qurey"; did you mean "query"?',
    );
    expect(() => parseColumnsFlag('query')).toThrowError('--columns: "query" is not COLUMN=HEADER');
    expect(() => parseColumnsFlag('query=a,query=b')).toThrowError('--columns: "query" is given twice');
  });
});

describe('entriesFromRecords: a spreadsheet’s rows', () => {
  it('pads short rows, ignores empty trailing cells, and refuses a value beyond the header', async () => {
    async function* records() {
      yield [{ line: 1, fields: ['query', 'location', 'radius', ''] }];
      yield [
        { line: 2, fields: ['plumber', 'Austin'] },
        { line: 4, fields: ['roofer', 'Dallas', '', '', 'stray'] },
      ];
    }
    const rows: InputRow[] = [];
    for await (const batch of entriesFromRecords(records(), rules(), 'xlsx', new Set())) rows.push(...batch);
    expect(rows).toEqual([
      { line: 2, values: { query: 'plumber', location: 'Austin', radius: '' } },
      { line: 4, message: 'a value in column 5, which has no header' },
    ]);
  });
});
