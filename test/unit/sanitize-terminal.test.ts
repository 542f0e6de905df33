import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal } from '../../src/output/index.js';

describe('sanitizeForTerminal', () => {
  it.each([
    ['\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    ['\x1b]8;;http://x\x07text\x1b]8;;\x07', '\\x1b]8;;http://x\\x07text\\x1b]8;;\\x07'],
    ['bell\x07', 'bell\\x07'],
    ['back\x08space', 'back\\x08space'],
    ['nul\x00', 'nul\\x00'],
    ['del\x7f', 'del\\x7f'],
    ['csi\u009b2J', 'csi\\u009b2J'],
    ['c1 \u0080 \u009f', 'c1 \\u0080 \\u009f'],
    ['a\nb\r\nc\td', 'a\\nb\\r\\nc\\td'],
    ['\u202eevil\u202c', '\\u202eevil\\u202c'],
    ['\u202a\u202b\u202d\u2066\u2067\u2068\u2069', '\\u202a\\u202b\\u202d\\u2066\\u2067\\u2068\\u2069'],
    ['line\u2028sep', 'line\\u2028sep'],
  ])('escapes %j visibly', (input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it.each(['plain', 'Café é', '東京', '😀 👍🏽 👨‍👩‍👧', 'non\u00a0breaking', 'C:\\path', ''])(
    'keeps %j as is',
    (text) => {
      expect(sanitizeForTerminal(text)).toBe(text);
    },
  );
});
