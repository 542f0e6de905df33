// The typed reading of an item (schemas.ts has its types): what a library user gets. The as-sent item
// (numbers with their digits, for the CLI's writers) stays reachable through asSent() when the two
// differ; when they do not (the common case: a page JSON.parse read whole), the item is its own
// typed reading and nothing is copied.

import { AS_SENT, ExactNumber, KEY_ORDER, numberHoldsToken } from './exact-number.js';
import type { FieldKind } from './schemas.js';

/** A resource's known fields and their kinds, laid out for typedItem's loop. */
export interface TypedFields {
  names: string[];
  kinds: FieldKind[];
  known: ReadonlySet<string>;
}

export function typedFields(kinds: ReadonlyMap<string, FieldKind>): TypedFields {
  return { names: [...kinds.keys()], kinds: [...kinds.values()], known: new Set(kinds.keys()) };
}

/** `sent` read as its typed resource: known fields per their kind, every other value made plain. */
export function typedItem(sent: Record<string, unknown>, fields: TypedFields): Record<string, unknown> {
  // Runs for every item a list hands out: plain loops, no copies unless something differs.
  let typed: Record<string, unknown> | undefined = KEY_ORDER in sent ? copyOf(sent) : undefined;
  const { names, kinds, known } = fields;
  for (let index = 0; index < names.length; index++) {
    const field = names[index] as string;
    const kind = kinds[index] as FieldKind;
    const value = sent[field];
    if (kind === 'text' && typeof value === 'string') continue;
    const present = value !== undefined || Object.hasOwn(sent, field);
    const read = readField(kind, value);
    if (!present || read !== value) {
      typed ??= copyOf(sent);
      setOwn(typed, field, read);
    }
  }
  const keys = Object.keys(sent);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const value = sent[key];
    if (typeof value !== 'object' || value === null || known.has(key)) continue;
    const plain = plainValue(value);
    if (plain !== value) {
      typed ??= copyOf(sent);
      setOwn(typed, key, plain);
    }
  }
  if (typed === undefined) return sent;
  Object.defineProperty(typed, AS_SENT, { value: sent, enumerable: false });
  return typed;
}

function readField(kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'id':
      // Missing reads as null, as every known field does (only paging refuses an item without one).
      return value === undefined ? null : plainValue(value);
    case 'number': {
      // Already read by the schema: a JS number, an ExactNumber or null.
      const number = value instanceof ExactNumber ? value.toNumber() : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : null;
    }
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (value instanceof ExactNumber) return value.digits;
      return null;
  }
}

/**
 * A JSON value with every number a JS number holds as that number (ExactNumber kept only for what it
 * cannot hold) and recorded key orders dropped; the value itself when nothing changes.
 */
export function plainValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof ExactNumber) return numberHoldsToken(value.digits) ? value.toNumber() : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const element = value[index];
      const plain = plainValue(element);
      if (plain !== element) {
        copy ??= value.slice();
        copy[index] = plain;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined = KEY_ORDER in record ? copyOf(record) : undefined;
  for (const key of Object.keys(record)) {
    const field = record[key];
    const plain = plainValue(field);
    if (plain !== field) {
      copy ??= copyOf(record);
      setOwn(copy, key, plain);
    }
  }
  return copy ?? value;
}

/** The object's own string keys and values (no symbols, so no recorded key order). */
function copyOf(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setOwn(copy, key, record[key]);
  return copy;
}

/** Assignment, except that "__proto__" becomes an own key as in JSON.parse, not the prototype. */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}
