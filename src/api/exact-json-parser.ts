// A JSON parser that keeps what JSON.parse would change: number tokens a JS number would print
// differently become ExactNumber, and an object whose keys include array indices records the order
// the keys came in (KEY_ORDER). The slow path of parseJsonLossless below. Nesting is bounded, so a
// hostile body cannot exhaust the stack.
import { type ExactNumber, KEY_ORDER, numberFromToken } from './exact-number.js';

export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/** Parses `text`; SyntaxError when it is not JSON, JsonTooDeepError past `maxDepth` nested containers. */
export function parseExactJson(text: string, maxDepth: number): unknown {
  const parser = new ExactJsonParser(text, maxDepth);
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail('unexpected text after the JSON value');
  return value;
}

class ExactJsonParser {
  pos = 0;

  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  value(depth: number): unknown {
    this.skipWhitespace();
    switch (this.text.charCodeAt(this.pos)) {
      case 0x7b /* { */:
        return this.object(depth + 1);
      case 0x5b /* [ */:
        return this.array(depth + 1);
      case 0x22 /* " */:
        return this.string();
      case 0x74 /* t */:
        return this.literal('true', true);
      case 0x66 /* f */:
        return this.literal('false', false);
      case 0x6e /* n */:
        return this.literal('null', null);
      default:
        return this.number();
    }
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.test(this.text);
    this.pos = WHITESPACE.lastIndex;
  }

  fail(what: string): never {
    throw new SyntaxError(`${what} at position ${this.pos}`);
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > this.maxDepth) throw new JsonTooDeepError(this.maxDepth);
    this.pos++;
    const out: Record<string | symbol, unknown> = {};
    const order: string[] = [];
    let sortedByJs = false;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a key');
      const key = this.string();
      this.skipWhitespace();
      this.expect(0x3a /* : */, "':'");
      const value = this.value(depth);
      // Plain assignment of "__proto__" would set the prototype; JSON.parse makes it an own key.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      order.push(key);
      if (!sortedByJs && ARRAY_INDEX.test(key)) sortedByJs = true;
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) === 0x2c /* , */) {
        this.pos++;
        continue;
      }
      this.expect(0x7d /* } */, "',' or '}'");
      // A repeated key keeps its first place and its last value, as with JSON.parse.
      if (sortedByJs) out[KEY_ORDER] = [...new Set(order)];
      return out;
    }
  }

  private array(depth: number): unknown[] {
    if (depth > this.maxDepth) throw new JsonTooDeepError(this.maxDepth);
    this.pos++;
    const out: unknown[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d /* ] */) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) === 0x2c) {
        this.pos++;
        continue;
      }
      this.expect(0x5d, "',' or ']'");
      return out;
    }
  }

  /** Finds the closing quote by hand (a regex over a long string can exhaust its backtrack stack). */
  private string(): string {
    const start = this.pos;
    let end = start;
    for (;;) {
      end = this.text.indexOf('"', end + 1);
      if (end < 0) this.fail('unterminated string');
      let backslashes = 0;
      while (this.text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
    }
    this.pos = end + 1;
    // JSON's own rules for escapes and control characters, from the engine that knows them.
    return JSON.parse(this.text.slice(start, end + 1)) as string;
  }

  private number(): number | ExactNumber {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('unexpected character');
    this.pos = NUMBER.lastIndex;
    return numberFromToken(match[0]);
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('unexpected character');
    this.pos += word.length;
    return value;
  }

  private expect(char: number, what: string): void {
    if (this.text.charCodeAt(this.pos) !== char) this.fail(`expected ${what}`);
    this.pos++;
  }
}

/** Far beyond any real API body (leads nest 3 deep), far below what would exhaust the stack. */
export const MAX_JSON_DEPTH = 1000;

// Matches (at least) every place where JSON.parse would lose something: a number token in value position
// (after `:` `,` `[`) with an exponent, 16 or more digits, five leading fraction zeros, a trailing fraction
// zero, or `-0`; and an object key that is an array index, which a JS object would move to the front. It
// may also match inside a string ("x: 4.50,"): that costs only the slow parser.
const JSON_PARSE_COULD_CHANGE =
  /[:,[]\s*(?:-?(?:\d[\d.]*[eE]|\d[\d.]{15}|0\.0{5}|\d+\.\d*0\s*[,}\]])|-0\s*[,}\]])|"(?:0|[1-9]\d*)"\s*:/;

/**
 * The body's value, exactly as sent, at JSON.parse's speed unless the regex above says it could change
 * something; SyntaxError when it is not JSON, JsonTooDeepError when too deep.
 */
export function parseJsonLossless(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (JSON_PARSE_COULD_CHANGE.test(text)) return parseExactJson(text, maxDepth);
  // JSON.parse itself copes with any depth, but whatever walks the value afterwards recursively
  // (JSON.stringify among them) would not. Nesting needs brackets: few brackets, no walk.
  const value: unknown = JSON.parse(text);
  if (countOpeningBrackets(text, maxDepth) >= maxDepth) assertDepthAtMost(value, maxDepth, 1);
  return value;
}

/** How many `{` and `[` the text holds (strings included), counting no further than `atMost`. */
function countOpeningBrackets(text: string, atMost: number): number {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at >= 0 && count < atMost; at = text.indexOf(bracket, at + 1))
      count++;
  }
  return count;
}

function assertDepthAtMost(value: unknown, maxDepth: number, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > maxDepth) throw new JsonTooDeepError(maxDepth);
  if (Array.isArray(value)) {
    for (const element of value) assertDepthAtMost(element, maxDepth, depth + 1);
    return;
  }
  for (const key in value) assertDepthAtMost((value as Record<string, unknown>)[key], maxDepth, depth + 1);
}

// The items of a list answer as the exact text the server sent, so that `leadctl api --paginate` can
// merge pages without re-serialising anything (64-bit ids, `4.50`, key order and escapes all kept).
// Runs on text JSON.parse has already accepted, so it only has to find boundaries, not validate; it
// keeps no stack, so any nesting is read.
/** The elements of the array at `key` of the top-level object (or of a top-level array when key is ''). */
export function arrayItemTexts(text: string, key: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let listDepth = key === '' ? 1 : -1; // the depth inside the list, once found
  let name = ''; // the last string at the top level: the key of the value that follows
  let start = -1; // where the item being read began
  let end = -1; // just past its last character that is not space
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue;
    if (depth === listDepth && (char === ',' || char === ']')) {
      if (start >= 0) items.push(text.slice(start, end));
      if (char === ']') return items;
      start = -1;
      continue;
    }
    if (depth === listDepth && start < 0) start = i;
    if (char === '"') {
      const from = i;
      i = skipString(text, i) - 1;
      if (depth === 1 && listDepth < 0) name = text.slice(from, i + 1);
    } else if (char === '{' || char === '[') {
      depth++;
      if (char === '[' && depth === 2 && listDepth < 0 && JSON.parse(name) === key) listDepth = 2;
    } else if (char === '}' || char === ']') {
      depth--;
    }
    end = i + 1;
  }
  return items;
}

function skipString(text: string, i: number): number {
  for (i += 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}
