// parseJsonLossless: what JSON.parse gives, except that no number loses a digit and no key its place.
import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, parseExactJson, parseJsonLossless } from '../../src/api/exact-json-parser.js';
import { ExactNumber, KEY_ORDER } from '../../src/api/exact-number.js';

/** Deterministic pseudo-random numbers, so a failure names a token that can be replayed. */
function* randomTokens(count: number): Generator<string> {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
  for (let i = 0; i < count; i++) {
    const whole = next() < 0.2 ? '0' : String(1 + Math.floor(next() * 9)) + digits(Math.floor(next() * 22));
    const fraction = next() < 0.5 ? `.${digits(1 + Math.floor(next() * 20))}` : '';
    const exponent = next() < 0.1 ? `e${next() < 0.5 ? '-' : ''}${Math.floor(next() * 30)}` : '';
    yield `${next() < 0.3 ? '-' : ''}${whole}${fraction}${exponent}`;
  }
}

describe('parseJsonLossless', () => {
  it('keeps the digits of every number a JS number would change, and no others', () => {
    for (const token of randomTokens(20_000)) {
      const body = `{"a":[${token}],"b":{"c": ${token} }}`;
      const parsed = parseJsonLossless(body) as { a: unknown[]; b: { c: unknown } };
      const expected = String(Number(token)) === token ? Number(token) : new ExactNumber(token);
      expect(parsed.a[0], token).toEqual(expected);
      expect(parsed.b.c, token).toEqual(expected);
    }
  });

  it.each([
    ['1790000000000000007', new ExactNumber('1790000000000000007')],
    ['4.50', new ExactNumber('4.50')],
    ['1e3', new ExactNumber('1e3')],
    ['-0', new ExactNumber('-0')],
    ['0.0000001', new ExactNumber('0.0000001')],
    ['9007199254740993', new ExactNumber('9007199254740993')],
    ['4.5', 4.5],
    ['-97.74306080000001', -97.74306080000001],
    ['0', 0],
  ])('reads %s as sent', (token, expected) => {
    expect((parseJsonLossless(`{"rating":${token}}`) as { rating: unknown }).rating).toEqual(expected);
  });

  it('gives what JSON.parse gives for everything but numbers', () => {
    const body =
      '{"s":"a\\"b\\\\c\\u00e9\\n","t":true,"f":false,"n":null,"e":{},"l":[],"x":[{"y":[1,"2",null]}],"__proto__":{"p":1},"":0,"n2":1.50}';
    const exact = parseExactJson(body, 100) as Record<string, unknown>;
    const plain = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(exact)).toEqual(Object.keys(plain));
    expect({ ...exact, n2: null }).toEqual({ ...plain, n2: null });
    expect(Object.getPrototypeOf(exact)).toBe(Object.prototype);
    expect(exact.n2).toEqual(new ExactNumber('1.50'));
  });

  it('records the order of keys a JS object would sort, keeping a repeated key at its first place', () => {
    const parsed = parseJsonLossless('{"b":1,"7":2,"a":3,"b":4}') as Record<string | symbol, unknown>;
    expect(Object.keys(parsed)).toEqual(['7', 'b', 'a']);
    expect(parsed[KEY_ORDER]).toEqual(['b', '7', 'a']);
    expect(parsed.b).toBe(4);
    expect((parseJsonLossless('{"b":1,"a":2}') as object)[KEY_ORDER as never]).toBeUndefined();
  });

  it('refuses what JSON.parse refuses', () => {
    for (const body of [
      '{"a":01}',
      '{"a":1,}',
      '{"a":"x\ny"}',
      '{"a":1}x',
      '{"a":1e}',
      '{"a":-}',
      '{"a"1}',
      '"',
    ]) {
      expect(() => JSON.parse(body), body).toThrow(SyntaxError);
      expect(() => parseExactJson(body, 100), body).toThrow(SyntaxError);
    }
  });

  it('refuses nesting deeper than the limit on both paths, without exhausting the stack', () => {
    const deep = (open: string, inner: string, close: string) =>
      `{"a":${open.repeat(100_000)}${inner}${close.repeat(100_000)}}`;
    expect(() => parseJsonLossless(deep('[', '', ']'))).toThrow(JsonTooDeepError);
    // The exact path (a number JSON.parse would change sends the body there).
    expect(() => parseJsonLossless(deep('[', '1e3', ']'))).toThrow(JsonTooDeepError);
    expect(() => parseJsonLossless(deep('{"a":', '1', '}'))).toThrow(JsonTooDeepError);
    expect(() => parseJsonLossless(`{"a":${'['.repeat(10)}${']'.repeat(10)}}`, 10)).toThrow(
      'JSON nested deeper than 10 levels',
    );
    expect(parseJsonLossless(`{"a":${'['.repeat(9)}${']'.repeat(9)}}`, 10)).toBeTruthy();
  });
});
