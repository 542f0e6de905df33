// A value as JSON text, exactly as the server sent it: ExactNumber digits written raw, objects with a
// recorded key order (KEY_ORDER) written in that order. Compact (jsonText: items of plain values, the
// common row, go straight to JSON.stringify) or indented for a person (prettyJson).
import { ExactNumber, KEY_ORDER } from '../api/exact-number.js';
import { UNSAFE_FOR_TERMINAL } from '../text/terminal-text.js';

export function jsonText(value: unknown): string {
  return holdsOnlyPlainValues(value) ? JSON.stringify(value) : (exactJson(value) ?? 'null');
}

/** True for a primitive, or an object whose own values are all primitives and whose order is its own. */
function holdsOnlyPlainValues(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value) || value instanceof ExactNumber || KEY_ORDER in value) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (typeof field === 'object' && field !== null) return false;
  }
  return true;
}

/** JSON.stringify's rules (undefined and functions left out of objects, null in arrays), plus exact numbers. */
function exactJson(value: unknown): string | undefined {
  if (value instanceof ExactNumber) return value.digits;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((element) => exactJson(element) ?? 'null').join(',')}]`;
  const record = value as Record<string | symbol, unknown>;
  if (typeof record.toJSON === 'function') return JSON.stringify(value);
  const parts: string[] = [];
  for (const key of keysInOrder(record)) {
    const text = exactJson(record[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** The recorded order (keys still present, then any added since), else the object's own. */
export function keysInOrder(record: Record<string | symbol, unknown>): string[] {
  const own = Object.keys(record);
  const recorded = record[KEY_ORDER];
  if (!Array.isArray(recorded)) return own;
  const ordered = recorded.filter(
    (key): key is string => typeof key === 'string' && Object.hasOwn(record, key),
  );
  const placed = new Set(ordered);
  return [...ordered, ...own.filter((key) => !placed.has(key))];
}

// Characters JSON.stringify leaves raw that a terminal may act on or that reorder or break the line
// (docs/output.md, "The formats"): only ever inside JSON strings, so \uXXXX keeps the parsed value.
const RISKY_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function escapeRiskyInJson(text: string): string {
  return text.replace(RISKY_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * For json on a terminal: every character a table would escape (text/terminal-text.ts), as JSON's
 * \uXXXX (UTF-16 units), so the parsed value is still identical. Raw tab, CR and LF can only be JSON's own whitespace.
 */
export function escapeForTerminalJson(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, (char) => {
    if (char === '\n' || char === '\r' || char === '\t') return char;
    let escaped = '';
    for (let unit = 0; unit < char.length; unit += 1)
      escaped += `\\u${char.charCodeAt(unit).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}

// Pretty, for a terminal: coloured as jq colours it when allowed, escaping what a table would escape.
const KEY = '\u001b[1;34m';
const STRING = '\u001b[32m';
const NULL = '\u001b[90m';
const RESET = '\u001b[0m';

/** `value` as indented JSON text; `indent` is the indentation of the line it starts on. */
export function prettyJson(value: unknown, color: boolean, indent = ''): string {
  const paint = (code: string, text: string) => (color ? code + text + RESET : text);
  const walk = (node: unknown, at: string): string | undefined => {
    if (node instanceof ExactNumber) return node.digits;
    if (node === null) return paint(NULL, 'null');
    if (typeof node === 'string') return paint(STRING, escapeForTerminalJson(JSON.stringify(node)));
    if (typeof node !== 'object') return JSON.stringify(node);
    const inner = `${at}  `;
    if (Array.isArray(node)) {
      if (node.length === 0) return '[]';
      const elements = node.map((element) => inner + (walk(element, inner) ?? paint(NULL, 'null')));
      return `[\n${elements.join(',\n')}\n${at}]`;
    }
    const record = node as Record<string | symbol, unknown>;
    if (typeof record.toJSON === 'function') return walk(JSON.parse(JSON.stringify(node)), at);
    const members: string[] = [];
    for (const key of keysInOrder(record)) {
      const text = walk(record[key], inner);
      if (text !== undefined) {
        members.push(`${inner}${paint(KEY, escapeForTerminalJson(JSON.stringify(key)))}: ${text}`);
      }
    }
    return members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n${at}}`;
  };
  return walk(value, indent) ?? 'null';
}
