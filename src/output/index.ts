// The output layer's face: pick a renderer for a format. Each format lives in its own module;
// table.ts (and so cli-table3) is only evaluated by commands that import this module to render.
import { createCsvRenderer } from './csv.js';
import type { Renderer, RenderOptions } from './formats.js';
import { createJsonRenderer, createNdjsonRenderer } from './json.js';
import { createTableRenderer } from './table.js';
import { createTsvRenderer } from './tsv.js';

export { OUTPUT_FORMATS, type OutputFormat, type Renderer, type RenderOptions } from './formats.js';
export { guardFormula, looksLikeFormula } from './formula.js';
export { sanitizeForTerminal } from './sanitize.js';
export { BrokenPipeError, type OutputTarget, openOutput } from './writer.js';

export function createRenderer(options: RenderOptions): Renderer {
  switch (options.format) {
    case 'json':
      return createJsonRenderer(options);
    case 'ndjson':
      return createNdjsonRenderer(options);
    case 'csv':
      return createCsvRenderer(options);
    case 'tsv':
      return createTsvRenderer(options);
    case 'table':
      return createTableRenderer(options);
  }
}
