import { describe, expect, it } from 'vitest';
import { createTsvRenderer } from '../../src/output/csv.js';
import type { RenderOptions } from '../../src/output/formats.js';

function renderTsv(items: Record<string, unknown>[], overrides: Partial<RenderOptions> = {}): string {
  const renderer = createTsvRenderer({
    format: 'tsv',
    defaultFields: ['id', 'name', 'note'],
    tableFields: ['name'],
    header: true,
    sanitize: true,
    color: false,
    ...overrides,
  });
  return renderer.start() + items.map((item) => renderer.row(item)).join('') + renderer.finish();
}

/** Undo the documented escapes: \\ \t \n \r \xHH \uHHHH. */
function unescapeTsvField(field: string): string {
  return field.replace(/\\(\\|t|n|r|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, code: string) => {
    if (code === '\\') return '\\';
    if (code === 't') return '\t';
    if (code === 'n') return '\n';
    if (code === 'r') return '\r';
    return String.fromCharCode(Number.parseInt(code.slice(1), 16));
  });
}

describe('tsv', () => {
  it('writes a header and one tab-separated line per record, null and missing as empty', () => {
    expect(renderTsv([{ id: 1, name: 'Acme', note: null }, { id: 2.5 }])).toBe(
      'id\tname\tnote\n1\tAcme\t\n2.5\t\t\n',
    );
  });

  it('escapes backslash, tab, LF and CR so every record stays on one line', () => {
    const output = renderTsv([{ id: 1, name: 'a\tb', note: 'c:\\dir\nnext\r\nend' }], { header: false });
    expect(output).toBe('1\ta\\tb\tc:\\\\dir\\nnext\\r\\nend\n');
  });

  it('never writes raw control characters or escape sequences, and reads back exactly', () => {
    const notes = [
      '\x1b[31mred\x1b[0m',
      '\x1b]8;;http://evil.example\x07click\x1b]8;;\x07',
      'bell\x07 back\x08 del\x7f nul\x00',
      'c1 csi \u009b2J',
      'bidi \u202eevil\u202c \u2066x\u2069',
      'literal \\x1b stays text',
      'Café 東京 😀',
    ];
    const output = renderTsv(
      notes.map((note, id) => ({ id, note })),
      { fields: ['note'], header: false },
    );
    expect(output.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const lines = output.split('\n');
    expect(lines).toHaveLength(notes.length + 1);
    expect(lines.slice(0, -1).map(unescapeTsvField)).toEqual(notes);
    expect(lines[0]).toBe('\\x1b[31mred\\x1b[0m');
  });

  it('follows --fields order and drops the header with header=false', () => {
    expect(renderTsv([{ id: 1, name: 'n' }], { fields: ['name', 'id'], header: false })).toBe('n\t1\n');
  });
});
