// How an item's values become column values (the last one is the domain of its website): SQLite numbers only where JavaScript read the number
// exactly, the digits sent as text otherwise (docs/sync.md, "Exact values").
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../src/api/exact-number.js';
import { timeSpan } from '../../src/commands/options.js';
import { columnValue, rowValues } from '../../src/store/schema.js';

describe('columnValue', () => {
  it.each([
    ['a whole number as INTEGER (a bigint binds as one)', 12, 12n],
    ['a decimal JavaScript reads exactly as REAL', 4.5, 4.5],
    ['4.50 as its digits', new ExactNumber('4.50'), '4.50'],
    ['an id beyond 2^53 as its digits', new ExactNumber('12345678901234567890'), '12345678901234567890'],
    ['-0 as REAL (never the integer 0)', -0, -0],
    ['a string as sent', '+1 512-555-0101', '+1 512-555-0101'],
    ['null as NULL', null, null],
    ['missing as NULL', undefined, null],
    ['an object as JSON text', { b: 1, a: [new ExactNumber('1.0')] }, '{"b":1,"a":[1.0]}'],
    ['true as text', true, 'true'],
  ])('%s', (_name, value, stored) => {
    expect(columnValue(value)).toStrictEqual(stored);
  });
});

describe('rowValues', () => {
  it('puts the identity first as text, the spec fields in order, and the item as sent', () => {
    const item = { review_count: 3, id: new ExactNumber('9007199254740993'), name: 'Acme', extra: 'kept' };
    expect(rowValues('leads', item)).toStrictEqual({
      key: '9007199254740993',
      values: ['9007199254740993', 'Acme', null, null, null, null, 3n, null, null, null],
      json: '{"review_count":3,"id":9007199254740993,"name":"Acme","extra":"kept"}',
    });
  });
});

describe('timeSpan (--cache)', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['1h', 3_600_000],
    ['7d', 604_800_000],
    ['2W', 1_209_600_000],
  ])('%s', (text, ms) => {
    expect(timeSpan(text)).toBe(ms);
  });

  it.each(['0h', '1', 'h', '1.5h', '-1h', '1y', ''])('refuses %j', (text) => {
    expect(() => timeSpan(text)).toThrow('expected a span of time');
  });
});
