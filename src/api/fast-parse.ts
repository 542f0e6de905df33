// Item parsing in plain code. It used to be zod 4 (lenient looseObject schemas with preprocess steps);
// this gives exactly what those schemas gave, values, key order and error messages alike, which
// test/unit/schemas-fast-path.test.ts checks against zod itself. Why not zod: an export parses every
// item of every page, and zod's generic object walk was most of the CPU per row; and merely loading
// zod (with every locale it bundles) cost ~20 ms of a one-page command's ~180 ms.
//
// What zod did, and this code copies: known fields first, in schema order, then unknown fields in the
// order they arrived (an own "__proto__" key dropped); a known field the item lacks stays absent;
// coercion by the to* functions below; the first failing field, in schema order, named in the error.

/** How a known field is coerced; the same functions are the preprocess steps of the zod schemas. */
export type FieldKind = 'identity' | 'text' | 'number';

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;

/** "4.5" -> 4.5; a value that is not a number at all ("N/A", "", true, {}) -> null: "unknown". */
export function toNumberOrNull(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return null;
}

/** Text fields: numbers and booleans become their text; objects and arrays -> null. */
export function toTextOrNull(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** Identities: a numeric id becomes its text; anything else but a non-empty string is refused. */
export function toIdentity(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

/** Marks a value that makes the item malformed; describeProblem() then says why. */
const REFUSED = Symbol('refused');

function coerce(kind: FieldKind, value: unknown): unknown {
  if (kind === 'text') return toTextOrNull(value);
  if (kind === 'number') {
    const number = toNumberOrNull(value);
    // A number field must end finite or null: "1e999" coerces to Infinity, which is neither.
    return typeof number === 'number' && !Number.isFinite(number) ? REFUSED : number;
  }
  const id = toIdentity(value);
  return typeof id === 'string' && id !== '' ? id : REFUSED;
}

/** Why an item is malformed, in zod's words: the first bad field in schema order, or the item itself. */
export class ItemProblem {
  constructor(
    /** The field, or '' for the item as a whole. */
    readonly field: string,
    readonly message: string,
  ) {}
}

export type ItemNormalizer = (item: unknown) => Record<string, unknown> | ItemProblem;

/**
 * A normalizer for one item shape, e.g. `{ id: 'identity', name: 'text', rating: 'number' }`.
 * Items come fresh from JSON.parse and belong to the caller, so an item whose keys are already in
 * zod's order is coerced in place (no second object per row); any other order is copied.
 */
export function itemNormalizer(shape: Readonly<Record<string, FieldKind>>): ItemNormalizer {
  const known = Object.keys(shape);
  const kinds = known.map((key) => shape[key] as FieldKind);
  const positionOf = new Map(known.map((key, index) => [key, index]));
  const required = known.filter((key) => shape[key] === 'identity');

  return (item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return describeProblem(item, shape);
    const source = item as Record<string, unknown>;
    for (const key of required) if (!Object.hasOwn(source, key)) return describeProblem(item, shape);
    // One walk over the keys: coerce known fields and check the order is zod's.
    let next = 0;
    let unknownSeen = false;
    let inOrder = true;
    for (const key in source) {
      const position = positionOf.get(key);
      if (position === undefined) {
        // JSON.parse makes "__proto__" an own key; zod leaves it out, and so does the copy.
        if (key === '__proto__') inOrder = false;
        unknownSeen = true;
        continue;
      }
      if (unknownSeen || position < next) inOrder = false;
      next = position + 1;
      const value = source[key];
      const coerced = coerce(kinds[position] as FieldKind, value);
      if (coerced === REFUSED) return describeProblem(item, shape);
      if (coerced !== value) source[key] = coerced;
    }
    return inOrder ? source : reordered(source, known, positionOf);
  };
}

/** The item's fields in zod's order: known ones in schema order, then the rest as they came. */
function reordered(
  source: Record<string, unknown>,
  known: readonly string[],
  positionOf: ReadonlyMap<string, number>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of known) if (Object.hasOwn(source, key)) out[key] = source[key];
  // Assigning "__proto__" would set the prototype rather than copy a field.
  for (const key in source) if (!positionOf.has(key) && key !== '__proto__') out[key] = source[key];
  return out;
}

/**
 * The messages zod 4 gives for the lenient schemas (test/unit/schemas-fast-path.test.ts holds them
 * against zod itself): the only ways such an item can fail are these.
 */
function describeProblem(item: unknown, shape: Readonly<Record<string, FieldKind>>): ItemProblem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    const received = item === null ? 'null' : Array.isArray(item) ? 'array' : typeof item;
    return new ItemProblem('', `Invalid input: expected object, received ${received}`);
  }
  const source = item as Record<string, unknown>;
  for (const [field, kind] of Object.entries(shape)) {
    const value = Object.hasOwn(source, field) ? source[field] : undefined;
    if (kind === 'identity') {
      const id = toIdentity(value);
      if (typeof id !== 'string') return new ItemProblem(field, 'is missing');
      if (id === '') return new ItemProblem(field, 'is empty');
    } else if (kind === 'number') {
      const number = toNumberOrNull(value);
      if (typeof number === 'number' && !Number.isFinite(number)) {
        return new ItemProblem(field, `Invalid input: expected number, received ${number}`);
      }
    }
  }
  return new ItemProblem('', 'is invalid'); // unreachable while coerce() and this agree
}
