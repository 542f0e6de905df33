// jsonText: items written as the server sent them, exact numbers and recorded key order included.
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../src/api/exact-json-parser.js';
import { ExactNumber, KEY_ORDER } from '../../src/api/exact-number.js';
import { itemJson } from '../../src/output/json.js';
import { escapeForTerminalJson, jsonText } from '../../src/output/json-text.js';

describe('jsonText', () => {
  it('writes exact numbers raw, at any depth', () => {
    const item = { id: new ExactNumber('1790000000000000007'), rating: new ExactNumber('4.50'), n: 3 };
    expect(jsonText(item)).toBe('{"id":1790000000000000007,"rating":4.50,"n":3}');
    expect(jsonText({ a: [1, { b: new ExactNumber('-0') }], c: null })).toBe('{"a":[1,{"b":-0}],"c":null}');
    expect(jsonText(new ExactNumber('1e3'))).toBe('1e3');
  });

  it('gives what JSON.stringify gives for everything else', () => {
    const value = JSON.parse('{"__proto__":{"x":[1,"2",null]},"":"","a\\"b":true,"u":"\\u2028"}');
    const withHoles = { ...value, gone: undefined, f: () => 1, list: [undefined, 1], date: new Date(0) };
    expect(jsonText(withHoles)).toBe(JSON.stringify(withHoles));
    expect(jsonText({ plain: 1, text: 'x' })).toBe('{"plain":1,"text":"x"}');
  });

  it('writes keys in the order recorded when the body was read, then any added since', () => {
    const item = parseJsonLossless('{"b":1,"7":2,"a":{"z":1,"0":0}}') as Record<string | symbol, unknown>;
    expect(jsonText(item)).toBe('{"b":1,"7":2,"a":{"z":1,"0":0}}');
    const copy: Record<string | symbol, unknown> = { ...item, added: true };
    expect(copy[KEY_ORDER]).toBeDefined();
    expect(jsonText(copy)).toBe('{"b":1,"7":2,"a":{"z":1,"0":0},"added":true}');
  });
});

describe('itemJson', () => {
  it('picks --fields as fields, even one named __proto__, keeping exact numbers', () => {
    const item = parseJsonLossless('{"id":1790000000000000007,"__proto__":1,"x":2}') as Record<
      string,
      unknown
    >;
    expect(itemJson(item, ['__proto__', 'id', 'missing'])).toBe(
      '{"__proto__":1,"id":1790000000000000007,"missing":null}',
    );
  });
});

describe('escapeForTerminalJson', () => {
  it('escapes what a table would, as JSON escapes, and the value parses back the same', () => {
    const value = { name: 'a\u200bb\u202ec\u009bd\u{e0041}e', note: 'x' };
    const text = escapeForTerminalJson(JSON.stringify(value));
    expect(text).toBe('{"name":"a\\u200bb\\u202ec\\u009bd\\udb40\\udc41e","note":"x"}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('leaves JSON whitespace between values alone', () => {
    expect(escapeForTerminalJson('[\n\t{"a": 1}\r\n]')).toBe('[\n\t{"a": 1}\r\n]');
  });
});
