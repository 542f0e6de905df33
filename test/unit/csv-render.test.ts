import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../src/api/exact-number.js';
import { createCsvRenderer, csvField, guardFormula, quoteCsvField } from '../../src/output/csv.js';
import { cellText } from '../../src/output/fields.js';
import type { RenderOptions } from '../../src/output/formats.js';

const FIELDS = ['id', 'name', 'phone', 'rating', 'tags'];

function renderCsv(items: Record<string, unknown>[], overrides: Partial<RenderOptions> = {}): string {
  const renderer = createCsvRenderer({
    format: 'csv',
    defaultFields: FIELDS,
    tableFields: ['name'],
    header: true,
    sanitize: true,
    color: false,
    ...overrides,
  });
  return renderer.start() + items.map((item) => renderer.row(item)).join('') + renderer.finish();
}

/** A strict RFC 4180 reader: CRLF between records, quotes only around whole fields, "" inside them. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  while (index < text.length) {
    let field = '';
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) throw new Error('unterminated quoted field');
        if (text[index] === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        field += text[index];
        index += 1;
      }
    } else {
      while (index < text.length && text[index] !== ',' && text[index] !== '\r') {
        if (text[index] === '"' || text[index] === '\n')
          throw new Error(`bare ${JSON.stringify(text[index])} at ${index}`);
        field += text[index];
        index += 1;
      }
    }
    record.push(field);
    if (text[index] === ',') {
      index += 1;
    } else if (text.startsWith('\r\n', index)) {
      index += 2;
      records.push(record);
      record = [];
    } else {
      throw new Error(`expected , or CRLF at ${index}`);
    }
  }
  if (record.length > 0) throw new Error('last record lacks its CRLF');
  return records;
}

describe('csv', () => {
  it('reads back exactly with an RFC 4180 parser: commas, quotes, CR, LF, non-ASCII', () => {
    const names = [
      'Smith, Jones & Co',
      'The "Best" Plumber',
      'two\nlines',
      'carriage\rreturn',
      'crlf\r\ninside',
      'Café 東京 😀',
      '"',
      ' padded ',
      '',
    ];
    const items = names.map((name, id) => ({ id, name }));
    const records = parseCsv(renderCsv(items, { fields: ['id', 'name'] }));
    expect(records).toEqual([['id', 'name'], ...names.map((name, id) => [String(id), name])]);
  });

  it('ends every record with CRLF and quotes only fields that need it', () => {
    const output = renderCsv([{ id: 1, name: 'a,b', phone: 'plain', rating: 4.5, tags: null }]);
    expect(output).toBe('id,name,phone,rating,tags\r\n1,"a,b",plain,4.5,\r\n');
  });

  it('prints null and missing as empty, numbers as JavaScript does, objects and arrays as JSON', () => {
    const output = renderCsv([{ id: 1e21, name: null, rating: -0.5, tags: ['a', 'b,c'], phone: { n: 1 } }]);
    expect(parseCsv(output)[1]).toEqual(['1e+21', '', '{"n":1}', '-0.5', '["a","b,c"]']);
  });

  it('prints the digits the server sent for numbers a JS number would change, inside JSON cells too', () => {
    const id = new ExactNumber('1790000000000000007');
    const output = renderCsv([
      { id, name: 'x', rating: new ExactNumber('4.50'), tags: [new ExactNumber('-0')] },
    ]);
    expect(parseCsv(output)[1]).toEqual(['1790000000000000007', 'x', '', '4.50', '[-0]']);
    expect(cellText(new ExactNumber('1e3'))).toBe('1e3');
  });

  it('uses the resource fields in spec order and leaves out unknown ones', () => {
    const output = renderCsv([{ unknown: 'x', tags: 't', id: 7 }]);
    expect(parseCsv(output)).toEqual([FIELDS, ['7', '', '', '', 't']]);
  });

  it('follows --fields order, including fields the item lacks', () => {
    const output = renderCsv([{ id: 1, name: 'n', rating: 3 }], { fields: ['rating', 'missing', 'id'] });
    expect(output).toBe('rating,missing,id\r\n3,,1\r\n');
  });

  it('drops the header with header=false', () => {
    expect(renderCsv([{ id: 1 }], { fields: ['id'], header: false })).toBe('1\r\n');
  });

  it('writes only the header when there are no items', () => {
    expect(renderCsv([], { fields: ['id', 'name'] })).toBe('id,name\r\n');
  });

  it("guards formula cells with ' inside the quotes, and --no-sanitize turns that off", () => {
    const item = { id: 1, name: '=HYPERLINK("http://x","y")', phone: '+1 512-555-0101', rating: '@SUM(A1)' };
    const guarded = parseCsv(renderCsv([item], { fields: ['name', 'phone', 'rating'] }))[1];
    expect(guarded).toEqual(['\'=HYPERLINK("http://x","y")', '+1 512-555-0101', "'@SUM(A1)"]);
    const raw = parseCsv(renderCsv([item], { fields: ['name', 'phone', 'rating'], sanitize: false }))[1];
    expect(raw).toEqual(['=HYPERLINK("http://x","y")', '+1 512-555-0101', '@SUM(A1)']);
  });

  it('guards a cell that needs quoting as well: prefix first, then quote', () => {
    expect(renderCsv([{ name: '=1,2' }], { fields: ['name'], header: false })).toBe(`"'=1,2"\r\n`);
    expect(renderCsv([{ name: '-x\ny' }], { fields: ['name'], header: false })).toBe(`"'-x\ny"\r\n`);
  });
});

describe('csv fields of numbers', () => {
  // csvField skips the guard and the quoting for finite numbers: it must print what the general path does.
  it.each([
    0,
    -0,
    7,
    -3,
    1.5,
    -12.5,
    1e21,
    -1e21,
    1e-7,
    -1e-7,
    -1.5e300,
    5e-324,
    -5e-324,
    Number.NaN,
    Infinity,
    -Infinity,
  ])('%d', (value) => {
    for (const sanitize of [true, false]) {
      const general = quoteCsvField(sanitize ? guardFormula(cellText(value)) : cellText(value));
      expect(csvField(value, sanitize)).toBe(general);
    }
  });

  it('guards -Infinity, which is no number to a spreadsheet', () => {
    expect(csvField(-Infinity, true)).toBe("'-Infinity");
  });
});
