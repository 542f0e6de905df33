// The pure parts of the xlsx and geojson renderers: which numbers Excel holds exactly, what a value
// becomes in a cell, and which coordinates make a Point.
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../src/api/exact-number.js';
import { coordinateDigits } from '../../src/output/geojson.js';
import { cellValue, significantDigits } from '../../src/output/xlsx.js';

describe('significantDigits', () => {
  it.each([
    ['0', 0],
    ['4.50', 2],
    ['0.00120', 2],
    ['1000', 4],
    ['-97.7431000', 6],
    ['1.50e3', 2],
    ['9007199254740993', 16],
    ['123456789012345', 15],
  ])('%s has %i', (digits, count) => {
    expect(significantDigits(digits)).toBe(count);
  });
});

describe('cellValue', () => {
  const text = (value: string) => ({ richText: [{ text: value }] });
  it('strings are text cells, never numbers or formulas', () => {
    expect(cellValue('phone', '+15125550101')).toEqual(text('+15125550101'));
    expect(cellValue('zip', '02134')).toEqual(text('02134'));
    expect(cellValue('name', '=1+1')).toEqual(text('=1+1'));
  });
  it('numbers Excel holds are numbers; longer ones keep their digits as text', () => {
    expect(cellValue('rating', 4.5)).toBe(4.5);
    expect(cellValue('rating', new ExactNumber('4.50'))).toBe(4.5);
    expect(cellValue('id', new ExactNumber('9007199254740993'))).toEqual(text('9007199254740993'));
    expect(cellValue('lat', 0.1234567890123456)).toEqual(text('0.1234567890123456'));
    // Excel's limit is 15 significant digits: 15 stay a number, 16 do not.
    expect(cellValue('id', new ExactNumber('123456789012345'))).toBe(123456789012345);
    expect(cellValue('id', new ExactNumber('1234567890123456'))).toEqual(text('1234567890123456'));
  });
  it('http(s) websites are links; other schemes and other fields are text', () => {
    expect(cellValue('website', 'https://a.example/?x=1')).toEqual({
      text: 'https://a.example/?x=1',
      hyperlink: 'https://a.example/?x=1',
    });
    expect(cellValue('website', 'javascript:alert(1)')).toEqual(text('javascript:alert(1)'));
    expect(cellValue('website', 'https://a.example', false)).toEqual(text('https://a.example'));
    expect(cellValue('homepage', 'https://a.example')).toEqual(text('https://a.example'));
  });
  it("a website link is kept up to Excel's 2,079 characters; a longer one is text", () => {
    const url = (length: number) => `https://a.example/${'x'.repeat(length - 18)}`;
    expect(cellValue('website', url(2079))).toEqual({ text: url(2079), hyperlink: url(2079) });
    expect(cellValue('website', url(2080))).toEqual(text(url(2080)));
  });
  it('null is empty, booleans stay booleans, objects are JSON, controls are visible escapes', () => {
    expect(cellValue('x', null)).toBeNull();
    expect(cellValue('x', undefined)).toBeNull();
    expect(cellValue('x', true)).toBe(true);
    expect(cellValue('x', { a: [1] })).toEqual(text('{"a":[1]}'));
    expect(cellValue('x', 'a\u001bb\u0000')).toEqual(text('a\\x1bb\\x00'));
  });
});

describe('coordinateDigits', () => {
  it('keeps the digits of numbers within range', () => {
    expect(coordinateDigits(30.2672, 90)).toBe('30.2672');
    expect(coordinateDigits(new ExactNumber('-97.7431000'), 180)).toBe('-97.7431000');
    expect(coordinateDigits('30.5', 90)).toBe('30.5');
    expect(coordinateDigits(-180, 180)).toBe('-180');
  });
  it.each([[undefined], [null], ['north'], [''], [Number.NaN], [95], [new ExactNumber('1e400')], [{}]])(
    '%s is not usable',
    (value) => {
      expect(coordinateDigits(value, 90)).toBeUndefined();
    },
  );
});
