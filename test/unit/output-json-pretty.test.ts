// prettyJson: json for a person, with the same values, digits and key order as the piped json.
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../src/api/exact-json-parser.js';
import { ExactNumber } from '../../src/api/exact-number.js';
import { jsonText, prettyJson } from '../../src/output/json-text.js';

describe('prettyJson', () => {
  it('indents by two and keeps every value, exact digits and the server key order', () => {
    const text =
      '{"7":"seven","id":1790000000000000007,"rating":4.50,"tags":["a",null,{}],"none":[],"ok":true}';
    const item = parseJsonLossless(text);
    const pretty = prettyJson(item, false);
    expect(pretty).toBe(
      [
        '{',
        '  "7": "seven",',
        '  "id": 1790000000000000007,',
        '  "rating": 4.50,',
        '  "tags": [',
        '    "a",',
        '    null,',
        '    {}',
        '  ],',
        '  "none": [],',
        '  "ok": true',
        '}',
      ].join('\n'),
    );
    expect(jsonText(parseJsonLossless(pretty))).toBe(text);
  });

  it('escapes what could drive a terminal, and colours keys, strings and null only when asked', () => {
    expect(prettyJson({ n: 'a\u009b\u202eb\u001b' }, false)).toBe('{\n  "n": "a\\u009b\\u202eb\\u001b"\n}');
    expect(prettyJson({ k: 's', z: null, x: new ExactNumber('1e3') }, true)).toBe(
      '{\n  \x1b[1;34m"k"\x1b[0m: \x1b[32m"s"\x1b[0m,\n  \x1b[1;34m"z"\x1b[0m: \x1b[90mnull\x1b[0m,\n  \x1b[1;34m"x"\x1b[0m: 1e3\n}',
    );
  });
});
