// json and ndjson: values never altered unless --fields picks keys (docs/output.md, "The formats").
import { KEY_ORDER } from '../api/exact-number.js';
import { columnName, fieldValue } from './fields.js';
import type { RenderOptions, TextRenderer } from './formats.js';
import { escapeForTerminalJson, escapeRiskyInJson, jsonText, prettyJson } from './json-text.js';

/** One item as one line of JSON: the whole item, or exactly the chosen keys (missing -> null). */
export function itemJson(
  item: Record<string, unknown>,
  fields: readonly string[] | undefined,
  labels?: Readonly<Record<string, string>>,
): string {
  return escapeRiskyInJson(jsonText(chosenFields(item, fields, labels)));
}

function chosenFields(
  item: Record<string, unknown>,
  fields: readonly string[] | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): unknown {
  return fields && fields.length > 0 ? pickFields(item, fields, labels) : item;
}

/**
 * The chosen keys in the chosen order, each under its --fields label when renamed, even "__proto__"
 * (fromEntries defines own keys) or "7". A field the item lacks is null, unless `own` (keys of its own).
 */
export function pickFields(
  item: Record<string, unknown>,
  fields: readonly string[],
  labels: Readonly<Record<string, string>> | undefined,
  own = false,
): Record<string | symbol, unknown> {
  const keys = fields.map((field) => columnName(field, labels));
  const picked: Record<string | symbol, unknown> = Object.fromEntries(
    fields.map((field, index) => [keys[index], own ? item[field] : (fieldValue(item, field) ?? null)]),
  );
  // A JS object lists keys like "7" first: record the order asked for (json-text.ts follows it).
  if (keys.some((key) => /^\d+$/.test(key))) picked[KEY_ORDER] = keys;
  return picked;
}

/**
 * `[` + `\n{...}` + `,\n{...}`... + `\n]\n`; no items gives exactly `[]\n`. For a person at a terminal
 * (`pretty`), as jq and gh show it: each item indented by two, coloured unless told not to.
 */
export function createJsonRenderer(options: RenderOptions): TextRenderer {
  let count = 0;
  const safe = forTerminal(options);
  const text = options.pretty
    ? (item: Record<string, unknown>) =>
        `  ${prettyJson(chosenFields(item, options.fields, options.labels), options.color, '  ')}`
    : (item: Record<string, unknown>) => safe(itemJson(item, options.fields, options.labels));
  return {
    start: () => '[',
    row(item) {
      const separator = count === 0 ? '\n' : ',\n';
      count += 1;
      return separator + text(item);
    },
    finish: () => (count === 0 ? ']\n' : '\n]\n'),
  };
}

/** On a terminal, JSON text with every character that could drive it escaped; elsewhere as it is. */
function forTerminal(options: RenderOptions): (json: string) => string {
  return options.terminal ? escapeForTerminalJson : (json) => json;
}

export function createNdjsonRenderer(options: RenderOptions): TextRenderer {
  const safe = forTerminal(options);
  return {
    start: () => '',
    row: (item) => `${safe(itemJson(item, options.fields, options.labels))}\n`,
    finish: () => '',
  };
}
