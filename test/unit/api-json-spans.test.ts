import { describe, expect, it } from 'vitest';
import { arrayItemTexts } from '../../src/api/exact-json-parser.js';

describe('arrayItemTexts', () => {
  it('finds the list after other keys, whatever they hold, and keeps each item as written', () => {
    const body =
      '{ "meta": {"a": [1, {"b": "]}"}]}, "note": "say \\"[hi]\\"",\n "leads" : [ {"id": 1e3, "n": "x,y"} ,\t[2, 3], "s\\\\", null ] }';
    expect(arrayItemTexts(body, 'leads')).toEqual(['{"id": 1e3, "n": "x,y"}', '[2, 3]', '"s\\\\"', 'null']);
  });

  it('reads a top-level array, and an empty list', () => {
    expect(arrayItemTexts(' [ 12345678901234567890 , {"x":{}} ] ', '')).toEqual([
      '12345678901234567890',
      '{"x":{}}',
    ]);
    expect(arrayItemTexts('{"history": []}', 'history')).toEqual([]);
  });
});
