// What a JSON value from the server can hold beyond plain JavaScript values, so that it is written
// back as it came: a number whose digits a JS number would change (an id beyond 2^53, `4.50`, `1e3`,
// `-0`), and the key order of an object whose keys a JS object would sort (see KEY_ORDER).
// Renderers write `digits` exactly; the paging compares ids by text (identityText).

export class ExactNumber {
  constructor(readonly digits: string) {}

  toString(): string {
    return this.digits;
  }

  /**
   * For code that hands an item to JSON.stringify itself: the digits survive, as a string. leadctl's
   * own writers (output/json-text.ts) write them as the number they are.
   */
  toJSON(): string {
    return this.digits;
  }
}

/**
 * On an object parsed from JSON whose keys include array indices ("0", "7"): its keys in the order the
 * server sent them, since a JS object lists such keys first. A symbol, so Object.keys, for-in and
 * JSON.stringify never see it; enumerable, so a spread copy keeps it.
 */
export const KEY_ORDER: unique symbol = Symbol('leadctl.keyOrder');

/** A JSON number token as a JS number when that prints back to the same text, else an ExactNumber. */
export function numberFromToken(token: string): number | ExactNumber {
  const value = Number(token);
  return String(value) === token ? value : new ExactNumber(token);
}

/** An item's identity as text, or undefined when it has none: ids come as strings or JSON numbers. */
export function identityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (value instanceof ExactNumber) return value.digits;
  return undefined;
}
