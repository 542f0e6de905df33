// Which fields --fields names, checked against what the server actually sends. The spec's fields are
// always known; so is every key of the first page (a server may send more than the spec lists, and
// those stay selectable). A name that is neither is refused (exit 2) with the list, since an empty
// column would look like missing data. `--fields all` is every field the first page carries, in the
// server's order (the first item's keys, then keys only later items of that page have): with streaming
// output the columns must be fixed before the first row is written.
import { UsageError } from '../api/errors.js';
import { asSent } from '../api/exact-number.js';
import { closestMatch } from '../config/keys.js';

export const ALL_FIELDS = 'all';

type Item = Record<string, unknown>;

/** Before any request: `all` stands alone. */
export function checkFieldsFlag(requested: readonly string[] | undefined): void {
  if (requested?.includes(ALL_FIELDS) && requested.length > 1) {
    throw new UsageError('--fields all cannot be combined with other field names');
  }
}

/**
 * The columns or keys to write, given the first page: undefined keeps the format's default (json
 * writes whole items). `keepsWholeItems`: json and ndjson, where `all` is simply every key of each item.
 */
export function resolveFields(
  requested: readonly string[] | undefined,
  specFields: readonly string[],
  firstPage: readonly Item[],
  keepsWholeItems: boolean,
): string[] | undefined {
  if (requested === undefined || requested.length === 0) return undefined;
  if (requested[0] === ALL_FIELDS) {
    if (keepsWholeItems) return undefined;
    return firstPage.length === 0 ? [...specFields] : fieldsOf(firstPage);
  }
  // Nothing came back: no key to check against beyond the spec, and no row to show anyway.
  if (firstPage.length === 0) return [...requested];
  const known = [...new Set([...specFields, ...fieldsOf(firstPage)])];
  const unknown = requested.filter((field) => !known.includes(field));
  if (unknown.length > 0) {
    const guess = unknown.length === 1 ? closestMatch(unknown[0] as string, known) : undefined;
    throw new UsageError(
      `unknown field${unknown.length === 1 ? '' : 's'} in --fields: ${unknown.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`,
      `known fields: ${known.join(', ')} (or --fields all)`,
    );
  }
  return [...requested];
}

/** Every key the server sent in the page's items, in the order first seen. */
function fieldsOf(items: readonly Item[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(asSent(item))) seen.add(key);
  return [...seen];
}
