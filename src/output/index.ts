// The output layer's face: pick a renderer for a format. Each format lives in its own module.
// table.ts is imported only when the format is table:
// json, csv and the others never pay for it, which matters most to a one-page `leadctl leads --json`.
import { asSent } from '../api/exact-number.js';
import { createCsvRenderer, createTsvRenderer } from './csv.js';
import type { Renderer, RenderOptions } from './formats.js';
import { createGeojsonRenderer } from './geojson.js';
import { createJsonRenderer, createNdjsonRenderer } from './json.js';

/**
 * The client hands out items typed for library users (`4.50` read as 4.5); every format writes them as
 * the server sent them (asSent: exact digits, key order), as cli.md promises.
 */
export async function createRenderer(options: RenderOptions): Promise<Renderer> {
  const renderer = await createFormatRenderer(options);
  const row = renderer.row.bind(renderer);
  renderer.row = (item) => row(asSent(item));
  return renderer;
}

async function createFormatRenderer(options: RenderOptions): Promise<Renderer> {
  switch (options.format) {
    case 'json':
      return createJsonRenderer(options);
    case 'ndjson':
      return createNdjsonRenderer(options);
    case 'csv':
      return createCsvRenderer(options);
    case 'tsv':
      return createTsvRenderer(options);
    case 'geojson':
      return createGeojsonRenderer(options);
    case 'xlsx': {
      // exceljs is large: only a run that writes xlsx loads it (a chunk of its own).
      const { createXlsxRenderer } = await import('./xlsx.js');
      return createXlsxRenderer(options);
    }
    case 'table': {
      const { createTableRenderer } = await import('./table.js');
      return createTableRenderer(options);
    }
  }
}
