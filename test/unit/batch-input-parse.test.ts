import { describe, expect, it } from 'vitest';
import { parseCsvRecords } from '../../src/batch/csv-records.js';
import { parseBatchInput } from '../../src/batch/input-parse.js';

describe('parseCsvRecords', () => {
  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', () => {
    const { records } = parseCsvRecords('a,b\r\n"x, y","say ""hi"""\r\n"two\nlines",z\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'z'] },
    ]);
  });

  it('numbers records by the line they start on, after a multi-line field', () => {
    const { records } = parseCsvRecords('h\n"1\n2\n3"\nnext');
    expect(records.map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('skips a byte-order mark and needs no final line break', () => {
    expect(parseCsvRecords('\uFEFFquery\nplumber').records).toEqual([
      { line: 1, fields: ['query'] },
      { line: 2, fields: ['plumber'] },
    ]);
  });

  it('reports a quote that never closes with the line it opened on', () => {
    expect(parseCsvRecords('a\n"open\nmore').unterminatedQuoteLine).toBe(2);
  });

  it('counts a quoted CRLF as one line, and reads LF, CRLF and CR endings mixed in one file', () => {
    const { records } = parseCsvRecords('h\r\n"a\r\nb",x\nc\rd\r\n\ne');
    expect(records).toEqual([
      { line: 1, fields: ['h'] },
      { line: 2, fields: ['a\r\nb', 'x'] },
      { line: 4, fields: ['c'] },
      { line: 5, fields: ['d'] },
      { line: 6, fields: [''] },
      { line: 7, fields: ['e'] },
    ]);
  });

  it('keeps the records before a quote that never closes', () => {
    expect(parseCsvRecords('h\nok\n"open\nmore')).toEqual({
      records: [
        { line: 1, fields: ['h'] },
        { line: 2, fields: ['ok'] },
      ],
      unterminatedQuoteLine: 3,
    });
  });
});

describe('parseBatchInput: CSV', () => {
  it('matches header names trimmed and case-insensitively, in any order, and skips blank lines', () => {
    const parsed = parseBatchInput(' Location , QUERY,radius\n\nAustin,plumber,5\nDallas,roofer,\n');
    expect(parsed.format).toBe('csv');
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries).toEqual([
      { line: 3, values: { location: 'Austin', query: 'plumber', radius: '5' } },
      { line: 4, values: { location: 'Dallas', query: 'roofer', radius: '' } },
    ]);
  });

  it('refuses unknown columns (a misspelt radius would silently search the wrong radius)', () => {
    const parsed = parseBatchInput('query,location,raduis\nplumber,Austin,5\n');
    expect(parsed.entries).toEqual([]);
    expect(parsed.problems).toEqual([
      { line: 1, message: 'unknown column "raduis" in the header (expected query, location, radius)' },
    ]);
  });

  it('refuses a header without query or location', () => {
    const parsed = parseBatchInput('query,radius\nplumber,5\n');
    expect(parsed.problems[0]?.message).toMatch(/no "location" column/);
  });

  it('reports rows with the wrong number of fields and keeps the others', () => {
    const parsed = parseBatchInput('query,location\nplumber,Austin\nroofer,Dallas,TX\n');
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.problems).toEqual([{ line: 3, message: 'expected 2 fields like the header, found 3' }]);
  });

  it('gives no entries for an empty file', () => {
    expect(parseBatchInput('')).toEqual({ format: 'csv', entries: [], problems: [] });
  });
});

describe('parseBatchInput: JSON lines', () => {
  it('is chosen when the first non-blank character is {', () => {
    const parsed = parseBatchInput(
      '\n  {"query":"plumber","location":"Austin"}\n\n{"Query":"roofer","location":"Dallas","radius":5}\n',
    );
    expect(parsed.format).toBe('jsonl');
    expect(parsed.entries).toEqual([
      { line: 2, values: { query: 'plumber', location: 'Austin' } },
      { line: 4, values: { query: 'roofer', location: 'Dallas', radius: 5 } },
    ]);
  });

  it('reports bad JSON, non-objects and unknown keys by line', () => {
    const parsed = parseBatchInput(
      '{"query":"a","location":"b"}\n{oops\n[1]\n{"query":"a","location":"b","zip":1}\n',
    );
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(parsed.problems[0]?.message).toBe('not valid JSON');
    expect(parsed.problems[2]?.message).toMatch(/unknown key "zip"/);
  });
});
