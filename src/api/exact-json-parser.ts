// A JSON parser that keeps what JSON.parse would change: number tokens a JS number would print
// differently become ExactNumber, and an object whose keys include array indices records the order
// the keys came in (KEY_ORDER). Otherwise it gives what JSON.parse gives, own "__proto__" keys included.
// It is the slow path: lossless-json.ts takes it only for bodies that need it. Nesting is bounded, so
// a hostile body cannot exhaust the stack.

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
