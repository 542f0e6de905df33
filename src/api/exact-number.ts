// JSON numbers that a JS number cannot hold, and what the CLI needs to write values back as they came.
// As sent (the CLI's reading): a number token a JS number would print differently is an ExactNumber, and
// an object whose keys a JS object would sort records their order (KEY_ORDER). Typed (a library user's,
// docs/library.md "Values and types"): ExactNumber only where a JS number cannot hold the value; an item
// whose typed reading differs keeps the as-sent one under AS_SENT, which Object.keys never sees.

/** A JSON number as the server wrote it, for values a JS number cannot hold exactly. */
export class ExactNumber {
  /** @param digits the JSON number token, e.g. `"9007199254740993"` or `"0.1000000000000000055511"`. */
  constructor(readonly digits: string) {}

  /** The nearest JS number (what `JSON.parse` would have given); `Infinity` beyond double range. */
  toNumber(): number {
    return Number(this.digits);
  }

  /** The exact integer; a RangeError when the value has a fraction (or is too large to write out). */
  toBigInt(): bigint {
    const decimal = decimalParts(this.digits);
    if (decimal === undefined || decimal.exponent < 0 || decimal.exponent > MAX_BIGINT_EXPONENT) {
      throw new RangeError(`${this.digits} is not an integer that a BigInt can hold`);
    }
    const magnitude = BigInt(decimal.significand || '0') * 10n ** BigInt(decimal.exponent);
    return decimal.negative ? -magnitude : magnitude;
  }

  /** Arithmetic and comparisons (`x + 1`, `x > 5`) use the nearest JS number. */
  valueOf(): number {
    return this.toNumber();
  }

  /** The digits as sent: `${x}` and String(x) lose nothing. */
  toString(): string {
    return this.digits;
  }

  /**
   * JSON.stringify writes a number, never a string: the exact digits where the runtime can write raw
   * JSON (`JSON.rawJSON`, Node 21+), else the nearest JS number (Node 20; `null` beyond double range).
   */
  toJSON(): unknown {
    const { rawJSON } = JSON as { rawJSON?: (text: string) => unknown };
    return typeof rawJSON === 'function' ? rawJSON(this.digits) : this.toNumber();
  }

  /** console.log shows `ExactNumber(9007199254740993)`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ExactNumber(${this.digits})`;
  }
}

const MAX_BIGINT_EXPONENT = 10_000;

/**
 * On an as-sent object whose keys include array indices ("0", "7"), which a JS object lists first: its
 * keys in the server's order. A symbol, so JSON.stringify never sees it; enumerable, so a spread keeps it.
 * @internal
 */
export const KEY_ORDER: unique symbol = Symbol('leadctl.keyOrder');

/**
 * On a typed item that differs from what the server sent: the as-sent item, for the CLI's writers.
 * @internal
 */
export const AS_SENT: unique symbol = Symbol('leadctl.asSent');

/** The item as the server sent it, what the CLI writes: an unchanged typed item is its own. @internal */
export function asSent<T extends object>(item: T): T {
  const sent = (item as { [AS_SENT]?: T })[AS_SENT];
  return sent ?? item;
}

/** A JSON number token as a JS number when that prints back to the same text, else an ExactNumber. */
export function numberFromToken(token: string): number | ExactNumber {
  const value = Number(token);
  return String(value) === token ? value : new ExactNumber(token);
}

/**
 * True when the JS number nearest to `token` is the value the token names, as JS itself would write
 * it: `4.50`, `1e3`, `-0` and `0.1` are held; `9007199254740993`, `0.1000000000000000055511`
 * and `1e400` are not.
 */
export function numberHoldsToken(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  const sent = decimalParts(token);
  if (sent === undefined) return false;
  // Zero (any spelling, either sign) is held with its sign; a tiny non-zero that became 0 is not.
  if (sent.significand === '') return value === 0 && sent.negative === Object.is(value, -0);
  const held = decimalParts(String(value));
  return (
    held !== undefined &&
    held.negative === sent.negative &&
    held.significand === sent.significand &&
    held.exponent === sent.exponent
  );
}

interface DecimalParts {
  negative: boolean;
  /** Significant digits without leading or trailing zeros ('' for zero). */
  significand: string;
  /** The power of ten the significand is multiplied by. */
  exponent: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A number's text (JSON's or JS's `1e+23`) as sign, significant digits and exponent. */
function decimalParts(text: string): DecimalParts | undefined {
  const match = DECIMAL.exec(text);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const all = (whole + fraction).replace(/^0+/, '');
  const significand = all.replace(/0+$/, '');
  return {
    negative: sign === '-',
    significand,
    exponent: Number(exponent) - fraction.length + (all.length - significand.length),
  };
}

/** An item's identity as text, or undefined when it has none: ids come as strings or JSON numbers. */
export function identityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (value instanceof ExactNumber) return value.digits;
  return undefined;
}
