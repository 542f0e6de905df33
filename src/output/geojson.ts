// geojson: an RFC 7946 FeatureCollection, streamed as json is (docs/output.md, "The formats").
import { ExactNumber } from '../api/exact-number.js';
import { fieldValue } from './fields.js';
import type { Renderer, RenderOptions } from './formats.js';
import { pickFields } from './json.js';
import { escapeForTerminalJson, escapeRiskyInJson, jsonText, keysInOrder } from './json-text.js';

const COORDINATE_FIELDS: readonly string[] = ['lat', 'lng'];

/** A JSON number token, for a coordinate a lenient server sent as a string ("30.27"). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The coordinate's JSON digits when it is a number within ±limit; undefined when it is not usable. */
export function coordinateDigits(value: unknown, limit: number): string | undefined {
  let digits: string | undefined;
  if (typeof value === 'number') digits = Number.isFinite(value) ? JSON.stringify(value) : undefined;
  else if (value instanceof ExactNumber) digits = value.digits;
  else if (typeof value === 'string' && JSON_NUMBER.test(value.trim())) digits = value.trim();
  if (digits === undefined) return undefined;
  const number = Number(digits);
  return Number.isFinite(number) && Math.abs(number) <= limit ? digits : undefined;
}

/** The item's properties: the chosen fields (or all it has) but lat and lng, renamed as --fields says. */
function propertiesOf(
  item: Record<string, unknown>,
  options: RenderOptions,
): Record<string | symbol, unknown> {
  const chosen = options.fields && options.fields.length > 0;
  const fields = (chosen ? (options.fields as string[]) : keysInOrder(item)).filter(
    (field) => !COORDINATE_FIELDS.includes(field),
  );
  return pickFields(item, fields, options.labels, !chosen);
}

export function createGeojsonRenderer(options: RenderOptions): Renderer {
  let written = 0;
  let skipped = 0;
  const safe = options.terminal ? escapeForTerminalJson : (json: string) => json;
  return {
    start: () => '{"type":"FeatureCollection","features":[',
    row(item) {
      const lng = coordinateDigits(fieldValue(item, 'lng'), 180);
      const lat = coordinateDigits(fieldValue(item, 'lat'), 90);
      if (lng === undefined || lat === undefined) {
        skipped += 1;
        return '';
      }
      const separator = written === 0 ? '\n' : ',\n';
      written += 1;
      const properties = escapeRiskyInJson(jsonText(propertiesOf(item, options)));
      return `${separator}${safe(
        `{"type":"Feature","geometry":{"type":"Point","coordinates":[${lng},${lat}]},"properties":${properties}}`,
      )}`;
    },
    finish: () => (written === 0 ? ']}\n' : '\n]}\n'),
    // Each line fits 80 columns.
    notes() {
      const items = `${skipped} ${skipped === 1 ? 'item' : 'items'}`;
      if (skipped === 0) return [];
      if (written === 0)
        return [
          `${items}, none with usable lat, lng: the FeatureCollection is empty.`,
          'Search results have coordinates; leads and history entries do not.',
        ];
      return [`${items} left out: no usable lat, lng (missing, not a number, out of range).`];
    },
  };
}
