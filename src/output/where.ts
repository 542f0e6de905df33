// --where: row filters that need no jq; every --where must hold. The grammar, and how values compare rule
// for rule: docs/output.md, "`--where`: rows that pass".
import { UsageError } from '../api/errors.js';
import { asSent, ExactNumber } from '../api/exact-number.js';
import { closestMatch } from '../config/keys.js';
import { cellText, fieldValue } from './fields.js';

export type WhereOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | '~';

export type WhereCondition =
  | { kind: 'compare'; field: string; operator: WhereOperator; value: string; text: string }
  | { kind: 'present'; field: string; text: string }
  | { kind: 'missing'; field: string; text: string };

export const WHERE_GRAMMAR =
  'a condition is FIELD OP VALUE with OP one of = != < <= > >= ~ (contains), FIELD (present) or !FIELD (missing); quote a VALUE with "..." to keep spaces or operators';

const OPERATOR_CHARS = /[=!<>~]/;
const COMPARISON = /^([^\s=!<>~"]+)\s*(<=|>=|!=|=|<|>|~)(.*)$/su;
const BARE_FIELD = /^(!?)([^\s=!<>~"]+)$/u;

/** One --where text as a condition; a UsageError (exit 2) with the grammar when it is none. */
export function parseWhere(raw: string): WhereCondition {
  const text = raw.trim();
  const refuse = (why: string) =>
    new UsageError(`invalid --where ${JSON.stringify(raw)}: ${why}`, WHERE_GRAMMAR);
  if (text === '') throw refuse('the condition is empty');
  const bare = BARE_FIELD.exec(text);
  if (bare) {
    const field = bare[2] as string;
    return bare[1] === '!' ? { kind: 'missing', field, text } : { kind: 'present', field, text };
  }
  const match = COMPARISON.exec(text);
  if (!match) {
    const start = text.search(OPERATOR_CHARS);
    throw refuse(start === 0 ? 'no field name before the operator' : 'expected FIELD OP VALUE');
  }
  const [, field = '', operator = '=', rest = ''] = match;
  const value = rest.trim();
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"') || value.slice(1, -1).replaceAll('""', '').includes('"'))
      throw refuse('a quoted value must end with " (write "" for a quote inside it)');
    return {
      kind: 'compare',
      field,
      operator: operator as WhereOperator,
      value: value.slice(1, -1).replaceAll('""', '"'),
      text,
    };
  }
  // `rating=>4` or `name==Joe` is a typo far more often than a value that starts with an operator.
  if (OPERATOR_CHARS.test(value.charAt(0)))
    throw refuse(
      `the value starts with ${JSON.stringify(value.charAt(0))}: quote it ("...") if that is meant`,
    );
  return { kind: 'compare', field, operator: operator as WhereOperator, value, text };
}

/**
 * Every condition's field must be known (`known` undefined: no check yet), as --fields checks, and a
 * number field compared with a number: `rating>=4,5` would silently hold for nothing.
 */
export function checkWhereFields(
  conditions: readonly WhereCondition[],
  known: readonly string[] | undefined,
  isNumberField: (field: string) => boolean,
): void {
  for (const condition of conditions) {
    if (known && !known.includes(condition.field)) {
      const guess = closestMatch(condition.field, known);
      throw new UsageError(
        `unknown field in --where ${JSON.stringify(condition.text)}: ${condition.field}${guess ? ` (did you mean ${guess}?)` : ''}`,
        `known fields: ${known.join(', ')}`,
      );
    }
    if (condition.kind === 'compare' && isNumberField(condition.field)) checkNumberValue(condition);
  }
}

/** `~` looks for digits in a number's text and `rating=` asks for an empty rating: only those need no number. */
function checkNumberValue({ field, operator, value, text }: WhereCondition & { kind: 'compare' }): void {
  if (operator === '~' || value === '' || decimal(value)) return;
  // A decimal comma (4,5) or a thousands one (1,000), as a person in much of the world writes numbers.
  const comma = /^[+-]?\d+,\d+$/.test(value)
    ? value.replace(',', /,\d{3}$/.test(value) ? '' : '.')
    : undefined;
  throw new UsageError(
    `invalid --where ${JSON.stringify(text)}: ${field} is a number and ${JSON.stringify(value)} is not one${comma ? ` (did you mean ${field}${operator}${comma}?)` : ''}`,
    `write the number in digits, with a point for decimals: --where '${field}${operator}${comma ?? '4.5'}'`,
  );
}

/** True when the item (as the server sent it) meets every condition. */
export function matchesAll(conditions: readonly WhereCondition[], item: Record<string, unknown>): boolean {
  if (conditions.length === 0) return true;
  const sent = asSent(item);
  return conditions.every((condition) => matches(condition, fieldValue(sent, condition.field)));
}

function matches(condition: WhereCondition, value: unknown): boolean {
  const empty = value === null || value === undefined || value === '';
  if (condition.kind === 'present') return !empty;
  if (condition.kind === 'missing') return empty;
  const { operator } = condition;
  const number = numberText(value);
  if (number !== undefined) {
    const wanted = decimal(condition.value);
    if (operator === '~') return foldCase(number).includes(foldCase(condition.value));
    if (wanted === undefined) return operator === '!=';
    return HOLDS[operator](compareDecimals(decimal(number) as Decimal, wanted));
  }
  const text = cellText(value);
  if (operator === '~') return foldCase(text).includes(foldCase(condition.value));
  if (operator === '=' || operator === '!=') return HOLDS[operator](text === condition.value ? 0 : 1);
  return !empty && HOLDS[operator](compareCodePoints(text, condition.value));
}

/** Whether a comparison's order (negative, 0, positive) satisfies the operator. */
const HOLDS: Record<WhereOperator, (order: number) => boolean> = {
  '=': (order) => order === 0,
  '!=': (order) => order !== 0,
  '<': (order) => order < 0,
  '<=': (order) => order <= 0,
  '>': (order) => order > 0,
  '>=': (order) => order >= 0,
  '~': () => false,
};

/** The digits of a JSON number value (a finite JS number or an ExactNumber); undefined for anything else. */
function numberText(value: unknown): string | undefined {
  if (value instanceof ExactNumber) return value.digits;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return undefined;
}

// Unicode case-insensitive form: NFC, then upper and lower case (ß -> SS -> ss, final sigma -> σ).
// Lower-cased, Turkish İ is i and a combining dot (U+0307); the dot goes, so İstanbul ~ istanbul.
function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replaceAll('i\u0307', 'i');
}

/** Code-point order (JS's < orders UTF-16 units, which puts U+FF01 after an emoji). */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const difference = (x.value.codePointAt(0) as number) - (y.value.codePointAt(0) as number);
    if (difference !== 0) return difference;
  }
}

interface Decimal {
  negative: boolean;
  /** Significant digits, no leading or trailing zeros ('' for zero). */
  digits: string;
  /** The value is 0.digits × 10^point. */
  point: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal number's text (`-12.50`, `1e3`, `.5`, `1790000000000000007`) exactly; undefined if none. */
function decimal(text: string): Decimal | undefined {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const all = whole + fraction;
  const leading = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(leading).replace(/0+$/, '');
  // Exponents beyond this are not numbers anyone types or a server sends; refusing keeps the math exact.
  if (Math.abs(Number(exponent)) > 1_000_000) return undefined;
  return {
    negative: sign === '-' && digits !== '',
    digits,
    point: whole.length - leading + Number(exponent),
  };
}

function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const magnitude = compareMagnitudes(a, b);
  return a.negative ? -magnitude : magnitude;
}

function compareMagnitudes(a: Decimal, b: Decimal): number {
  if (a.digits === '' || b.digits === '') return a.digits === b.digits ? 0 : a.digits === '' ? -1 : 1;
  if (a.point !== b.point) return a.point < b.point ? -1 : 1;
  const length = Math.max(a.digits.length, b.digits.length);
  const left = a.digits.padEnd(length, '0');
  const right = b.digits.padEnd(length, '0');
  return left === right ? 0 : left < right ? -1 : 1;
}

/** Counts what a filter kept and left out, for the closing line ("38 filtered out by --where"). */
export interface WhereFilter {
  readonly conditions: readonly WhereCondition[];
  /** The items that meet every condition, in order; the others are counted. */
  keep<T extends Record<string, unknown>>(items: readonly T[]): T[];
  readonly filteredOut: number;
}

export function createWhereFilter(conditions: readonly WhereCondition[]): WhereFilter {
  let filteredOut = 0;
  return {
    conditions,
    keep(items) {
      if (conditions.length === 0) return [...items];
      const kept = items.filter((item) => matchesAll(conditions, item));
      filteredOut += items.length - kept.length;
      return kept;
    },
    get filteredOut() {
      return filteredOut;
    },
  };
}

/** "38 filtered out by --where" for a closing line; '' when nothing was. */
export function filteredOutNote(count: number): string {
  return count === 0 ? '' : `${count.toLocaleString('en-US')} filtered out by --where`;
}

/** After a footer: " 18 of them filtered out by --where." when --where left any out. */
export function filteredOutSentence(count: number): string {
  return count === 0 ? '' : ` ${count.toLocaleString('en-US')} of them filtered out by --where.`;
}

/** After a batch's summary: " (38 filtered out by --where)" when --where left any out. */
export function filteredOutClause(count: number): string {
  return count === 0 ? '' : ` (${filteredOutNote(count)})`;
}
