// createRenderer picks the format's renderer; table's is loaded only when asked for.
import { describe, expect, it } from 'vitest';
import { chunkText, joinChunks, OUTPUT_FORMATS, type OutputFormat } from '../../src/output/formats.js';
import { createRenderer } from '../../src/output/item-sink.js';

async function render(format: OutputFormat): Promise<string> {
  const renderer = await createRenderer({
    format,
    defaultFields: ['id', 'name'],
    tableFields: ['name'],
    header: true,
    sanitize: true,
    color: false,
  });
  return chunkText(
    joinChunks([renderer.start(), renderer.row({ id: 'a', name: 'Acme, Inc' }), await renderer.finish()]),
  );
}

describe('createRenderer', () => {
  it.each([
    ['json', '[\n{"id":"a","name":"Acme, Inc"}\n]\n'],
    ['ndjson', '{"id":"a","name":"Acme, Inc"}\n'],
    ['csv', 'id,name\r\na,"Acme, Inc"\r\n'],
    ['tsv', 'id\tname\na\tAcme, Inc\n'],
  ] as const)('renders %s', async (format, expected) => {
    expect(await render(format)).toBe(expected);
  });

  it('loads the table renderer on demand', async () => {
    expect(await render('table')).toBe('name\nAcme, Inc\n');
  });

  it('covers every format', async () => {
    for (const format of OUTPUT_FORMATS) expect(await render(format)).not.toBe('');
  });
});
