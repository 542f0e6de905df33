// json for a person at a terminal: indented, keys in the server's order, numbers with the digits it
// sent (as json-text.ts), coloured as jq colours it (keys blue, strings green, null grey) when allowed.
// Strings and keys escape, as \uXXXX, every character a table would escape: this json is for a terminal.
import { ExactNumber } from '../api/exact-number.js';
import { escapeForTerminalJson, keysInOrder } from './json-text.js';

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
