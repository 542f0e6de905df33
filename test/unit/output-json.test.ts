import { describe, expect, it } from 'vitest';
import type { RenderOptions } from '../../src/output/formats.js';
import { createJsonRenderer, createNdjsonRenderer } from '../../src/output/json.js';

function render(
  format: 'json' | 'ndjson',
  items: Record<string, unknown>[],
  overrides: Partial<RenderOptions> = {},
) {
  const create = format === 'json' ? createJsonRenderer : createNdjsonRenderer;
  const renderer = create({
    format,
    defaultFields: ['id', 'name'],
    tableFields: ['name'],
    header: true,
    sanitize: true,
    color: false,
    ...overrides,
  });
  return renderer.start() + items.map((item) => renderer.row(item)).join('') + renderer.finish();
}

// Server data with everything awkward: unknown fields, nesting, nulls, formulas, controls, non-ASCII.
const ITEMS: Record<string, unknown>[] = [
  {
    zeta: 'unknown first',
    id: 1,
    name: '=HYPERLINK("x")',
    rating: 4.5,
    nested: { tags: ['a', 'b'], deep: null },
    note: 'line\nbreak\ttab "quote" \\ 東京 😀 \x1b[31m \u009b \u202e \u2028 \x7f',
  },
  { id: 2, name: null, big: 12345678901234, negative: -0.25, flag: false },
];

describe('json', () => {
  it('writes one array, one item per line, in exactly these bytes', () => {
    const output = render('json', [{ id: 1 }, { id: 2, name: 'b' }]);
    expect(output).toBe('[\n{"id":1},\n{"id":2,"name":"b"}\n]\n');
  });

  it('writes [] and a newline for no items', () => {
    expect(render('json', [])).toBe('[]\n');
  });

  it('keeps every field the server sent, in its order, with values unaltered', () => {
    const output = render('json', ITEMS);
    expect(JSON.parse(output)).toEqual(ITEMS);
    const firstLine = output.split('\n')[1] ?? '';
    expect(Object.keys(JSON.parse(firstLine.replace(/,$/, '')))).toEqual(Object.keys(ITEMS[0] ?? {}));
    expect(output.split('\n')).toHaveLength(ITEMS.length + 3); // "[", items, "]", ""
  });

  it('writes terminal-active characters as \\u escapes, which parse back to the same value', () => {
    const output = render('json', ITEMS);
    expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/);
    expect(output).toContain('\\u009b');
    expect(output).toContain('\\u202e');
  });

  it('with --fields keeps exactly those keys in that order, missing ones as null', () => {
    const output = render('json', ITEMS, { fields: ['rating', 'id', 'absent'] });
    expect(output).toBe('[\n{"rating":4.5,"id":1,"absent":null},\n{"rating":null,"id":2,"absent":null}\n]\n');
  });
});

describe('ndjson', () => {
  it('writes one object per line and nothing else', () => {
    expect(render('ndjson', [{ id: 1 }, { id: 2 }])).toBe('{"id":1}\n{"id":2}\n');
  });

  it('writes nothing for no items', () => {
    expect(render('ndjson', [])).toBe('');
  });

  it('keeps unknown fields and exact values; --fields picks and orders keys', () => {
    const lines = render('ndjson', ITEMS).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(ITEMS);
    expect(render('ndjson', ITEMS, { fields: ['name', 'id'] })).toBe(
      '{"name":"=HYPERLINK(\\"x\\")","id":1}\n{"name":null,"id":2}\n',
    );
  });
});
