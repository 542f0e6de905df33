import { describe, expect, it } from 'vitest';
import type { RenderOptions } from '../../src/output/formats.js';
import { createTableRenderer, displayWidth, SAMPLE_ROWS, shortWebsite } from '../../src/output/table.js';

function renderTable(items: Record<string, unknown>[], overrides: Partial<RenderOptions> = {}): string {
  const renderer = createTableRenderer({
    format: 'table',
    defaultFields: ['id', 'name', 'phone', 'rating', 'note'],
    tableFields: ['name', 'rating', 'note'],
    header: true,
    sanitize: true,
    color: false,
    ...overrides,
  });
  let output = renderer.start();
  for (const item of items) output += renderer.row(item);
  return output + (renderer.flush?.() ?? '') + renderer.finish();
}

const HOSTILE = [
  '\x1b[31mred\x1b[0m',
  '\x1b]8;;http://evil.example\x07click me\x1b]8;;\x07',
  'bell\x07 back\x08 del\x7f nul\x00 vt\x0b ff\x0c',
  'c1 csi \u009b2J \u0085',
  'bidi \u202eevil\u202c \u2066x\u2069',
  'two\nlines\r\nthree',
];
// Any of these bytes reaching a terminal can move the cursor, print a hidden link, ring, or reorder text.
const RAW_CONTROL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('table', () => {
  it('never writes control characters or escape sequences from data, and keeps each row on one line', () => {
    const output = renderTable(HOSTILE.map((note, index) => ({ name: `n${index}`, note })));
    expect(output).not.toMatch(RAW_CONTROL);
    expect(output).toContain('\\x1b[31mred\\x1b[0m');
    expect(output).toContain('\\x1b]8;;http://evil.example\\x07click me');
    expect(output).toContain('\\u009b2J');
    expect(output).toContain('\\u202eevil');
    expect(output).toContain('two\\nlines\\r\\nthree');
    // the header, one line per row, then the final newline
    expect(output.split('\n')).toHaveLength(HOSTILE.length + 2);
  });

  it('writes no ANSI codes with color=false, and bolds only the header with color=true', () => {
    const items = [{ name: 'Acme', rating: 4.5, note: 'x' }];
    expect(renderTable(items)).not.toContain('\x1b');
    const lines = renderTable(items, { color: true }).split('\n');
    expect(lines[0]).toContain('\x1b[1mname\x1b[22m');
    expect(lines.filter((line) => line.includes('\x1b'))).toEqual([lines[0]]);
  });

  it('fits the width: no line is longer, long cells end with …, short columns stay whole', () => {
    const items = [
      { name: 'A'.repeat(120), rating: 4.5, note: 'https://example.com/'.padEnd(90, 'x') },
      { name: 'Bob', rating: 10, note: 'short' },
    ];
    for (const width of [30, 40, 60, 80]) {
      const lines = renderTable(items, { width, fields: ['name', 'rating', 'note'] })
        .trimEnd()
        .split('\n');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
      expect(lines[1]).toMatch(/^A+… {2,}4\.5 {2}/);
      expect(lines[2]).toMatch(/^Bob +10 {2}short$/);
    }
  });

  it('truncates wide characters and emoji by whole graphemes and keeps columns aligned', () => {
    const items = [
      { name: '東京東京東京東京東京東京東京東京', note: '😀👍🏽👨‍👩‍👧😀👍🏽👨‍👩‍👧😀👍🏽👨‍👩‍👧', rating: 1 },
      { name: 'Tokyo', note: 'ok', rating: 22 },
    ];
    const lines = renderTable(items, { width: 30, fields: ['name', 'rating', 'note'] })
      .trimEnd()
      .split('\n');
    expect(lines.join('\n')).not.toMatch(LONE_SURROGATE);
    expect(lines[1]).toContain('…');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    // The rating column ends at the same terminal column on every line.
    const ratingEnd = (line: string, rating: string) =>
      displayWidth(line.slice(0, line.indexOf(rating) + rating.length));
    expect(ratingEnd(lines[1] ?? '', ' 1')).toBe(ratingEnd(lines[2] ?? '', '22'));
    expect(ratingEnd(lines[0] ?? '', 'rating')).toBe(ratingEnd(lines[2] ?? '', '22'));
  });

  it('keeps long cells whole without a width', () => {
    const output = renderTable([{ name: 'N'.repeat(300) }], { fields: ['name'] });
    expect(output).toContain('N'.repeat(300));
    expect(output).not.toContain('…');
  });

  it('right-aligns numbers, leaves numeric strings and text left, prints null and missing as empty', () => {
    const lines = renderTable(
      [
        { name: 'Acme', rating: 4.5, note: '123' },
        { name: 'Bobby', rating: 10, note: null },
        { name: 'Cy', rating: null },
      ],
      { fields: ['name', 'rating', 'note'] },
    ).split('\n');
    expect(lines[0]).toBe('name   rating  note');
    expect(lines[1]).toBe('Acme      4.5  123');
    expect(lines[2]).toBe('Bobby      10');
    expect(lines[3]).toBe('Cy');
  });

  it('shows the table fields by default, --fields in their order otherwise', () => {
    const item = { id: 'ID-1', name: 'Acme', phone: '+1 512', rating: 3, note: 'n' };
    expect(renderTable([item]).split('\n')[0]).toBe('name  rating  note');
    expect(renderTable([item], { fields: ['phone', 'id'] }).split('\n')[0]).toBe('phone   id');
  });

  it('leaves out the header with header=false', () => {
    const lines = renderTable([{ name: 'Acme' }], { fields: ['name'], header: false }).split('\n');
    expect(lines).toEqual(['Acme', '']);
  });

  it('renders nothing for no rows', () => {
    expect(renderTable([])).toBe('');
  });
});

describe('the table on a narrow terminal', () => {
  const lead = {
    name: 'Prairie Janitorial Services',
    phone: '+1 312-555-0148',
    website: 'https://www.prairiejanitorial.com',
    rating: 3.3,
    category: 'Cleaning Service',
    saved_at: '2026-11-22T05:59:31.162Z',
  };
  const tableFields = ['name', 'phone', 'website', 'rating', 'category', 'saved_at'];

  it('leaves out the last default columns instead of cutting every column short', () => {
    const out = renderTable([lead], { tableFields, width: 80 });
    expect(out).toContain('+1 312-555-0148');
    expect(out).not.toContain('saved_at');
    expect(out.split('\n')[0]).toMatch(/^name +phone +website +rating$/);
    // The name and the website whole: a column is left out before a useful one is cut.
    expect(out).toContain('Prairie Janitorial Services');
    expect(out).toContain('prairiejanitorial.com');
    for (const line of out.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it('never leaves out the name, wherever it stands; the least useful columns go first', () => {
    const out = renderTable([lead], { tableFields: ['rating', 'category', 'phone', 'name'], width: 45 });
    expect(out.split('\n')[0]).toMatch(/^rating +name$/);
    expect(out).toContain('Prairie Janitorial Services');
  });

  it('keeps every column the user named with --fields', () => {
    const out = renderTable([lead], { tableFields, fields: tableFields, width: 80 });
    expect(out).toContain('saved_at');
    expect(out).toContain('category');
  });

  it('shows an ISO UTC timestamp as date and minutes', () => {
    const out = renderTable([lead], { tableFields, width: 200 });
    expect(out).toContain('2026-11-22 05:59');
    expect(out).not.toContain('05:59:31');
  });
});

describe('a table that streams', () => {
  const renderer = () =>
    createTableRenderer({
      format: 'table',
      defaultFields: ['name', 'rating'],
      tableFields: ['name', 'rating'],
      header: true,
      sanitize: true,
      color: false,
      width: 40,
    });

  it('lays out at the end of the first page and writes every later row at once', () => {
    const table = renderer();
    expect(table.row({ name: 'Acme', rating: 4.5 })).toBe('');
    expect(table.flush?.()).toBe('name  rating\nAcme     4.5\n');
    expect(table.row({ name: 'Bo', rating: 10 })).toBe('Bo        10\n');
    expect(table.finish()).toBe('');
  });

  it('cuts a later, wider cell to the column laid out, never re-laying out', () => {
    const table = renderer();
    table.row({ name: 'Acme', rating: 1 });
    table.row({ name: 'Zed', rating: 2 });
    table.flush?.();
    const later = table.row({ name: 'A much longer business name', rating: 3 });
    expect(later).toBe('A m…       3\n');
  });

  it('without a page end, lays out after SAMPLE_ROWS rows and holds no more than that', () => {
    const table = renderer();
    const chunks = Array.from({ length: SAMPLE_ROWS + 1 }, (_, index) =>
      table.row({ name: `n${index}`, rating: index }),
    );
    expect(chunks.slice(0, SAMPLE_ROWS - 1).every((chunk) => chunk === '')).toBe(true);
    expect(chunks[SAMPLE_ROWS - 1]?.split('\n')).toHaveLength(SAMPLE_ROWS + 2);
    expect(chunks[SAMPLE_ROWS]).toMatch(/^n100 +100\n$/);
  });
});

describe('shortWebsite', () => {
  it('drops the scheme, www. and a lone trailing slash, and keeps a path', () => {
    expect(shortWebsite('https://www.prairiejanitorial.com')).toBe('prairiejanitorial.com');
    expect(shortWebsite('http://example.com/')).toBe('example.com');
    expect(shortWebsite('HTTPS://WWW.Example.com/menu')).toBe('Example.com/menu');
    expect(shortWebsite('example.org')).toBe('example.org');
  });
});

describe('displayWidth', () => {
  it('counts zero-width and other invisible format characters as no column', () => {
    expect(displayWidth('a\u200bb\u200c\u2060\ufeffc\u202e')).toBe(3);
    expect(displayWidth('👩‍💻')).toBe(2);
  });
});
