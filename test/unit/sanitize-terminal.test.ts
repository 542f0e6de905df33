import { describe, expect, it } from 'vitest';
import { capLength, oneLine, sanitizeForTerminal } from '../../src/text/terminal-text.js';

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
    ['zero\u200bwidth\u200c\u2060\ufeff', 'zero\\u200bwidth\\u200c\\u2060\\ufeff'],
    ['lone\u200djoiner', 'lone\\u200djoiner'],
    ['soft\u00adhyphen', 'soft\\u00adhyphen'],
    ['tag\u{e0041}\u{e0042}', 'tag\\u{e0041}\\u{e0042}'],
    ['filler\u3164', 'filler\\u3164'],
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

describe('oneLine, for server text quoted in a message', () => {
  it('puts it on one line, sanitized, and caps it', () => {
    expect(oneLine('a\nb\t\u202ec')).toBe('a b \\u202ec');
    expect(oneLine('x'.repeat(300))).toBe(`${'x'.repeat(199)}…`);
  });

  it('never cuts a character in two', () => {
    expect(capLength('😀😀😀', 2)).toBe('😀…');
  });
});
