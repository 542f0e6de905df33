// json (one array, one item per line) and ndjson (one object per line). Values are never altered:
// every field the server sent is kept in its order, unknown ones too, numbers with their digits
// (json-text.ts), unless --fields picks keys.
import { KEY_ORDER } from '../api/exact-number.js';
import { fieldValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { jsonText } from './json-text.js';

// Characters JSON.stringify leaves raw that a terminal may act on (DEL, C1 controls such as U+009B CSI)
// or that reorder or break the line (bidi controls, U+2028/2029). They can only occur inside JSON
// strings, and writing them as \uXXXX escapes keeps the parsed value identical.
const RISKY_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeRisky(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One item as one line of JSON: the whole item, or exactly the chosen keys (missing -> null). */
export function itemJson(item: Record<string, unknown>, fields: readonly string[] | undefined): string {
  return jsonText(fields && fields.length > 0 ? pickFields(item, fields) : item).replace(
    RISKY_IN_JSON,
    escapeRisky,
  );
}

/** The chosen keys in the chosen order, even "__proto__" (fromEntries defines own keys) or "7". */
function pickFields(
  item: Record<string, unknown>,
  fields: readonly string[],
): Record<string | symbol, unknown> {
  const picked: Record<string | symbol, unknown> = Object.fromEntries(
    fields.map((field) => [field, fieldValue(item, field) ?? null]),
  );
  // A JS object lists keys like "7" first: record the order asked for (json-text.ts follows it).
  if (fields.some((field) => /^\d+$/.test(field))) picked[KEY_ORDER] = fields;
  return picked;
}

/** `[` + `\n{...}` + `,\n{...}`... + `\n]\n`; no items gives exactly `[]\n`. */
export function createJsonRenderer(options: RenderOptions): Renderer {
  let count = 0;
  return {
    start: () => '[',
    row(item) {
      const separator = count === 0 ? '\n' : ',\n';
      count += 1;
      return separator + itemJson(item, options.fields);
    },
    finish: () => (count === 0 ? ']\n' : '\n]\n'),
  };
}

export function createNdjsonRenderer(options: RenderOptions): Renderer {
  return {
    start: () => '',
    row: (item) => `${itemJson(item, options.fields)}\n`,
    finish: () => '',
  };
}
