import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { ExactNumber } from '../../src/api/exact-number.js';
import {
  checkWhereFields,
  compareCodePoints,
  createWhereFilter,
  matchesAll,
  parseWhere,
} from '../../src/output/where.js';

const holds = (condition: string, item: Record<string, unknown>) => matchesAll([parseWhere(condition)], item);

describe('--where grammar', () => {
  it.each([
    ['rating>=4.5', { kind: 'compare', field: 'rating', operator: '>=', value: '4.5' }],
    [' rating >= 4.5 ', { kind: 'compare', field: 'rating', operator: '>=', value: '4.5' }],
    ['name~Joe', { kind: 'compare', field: 'name', operator: '~', value: 'Joe' }],
    ['name!=Joe', { kind: 'compare', field: 'name', operator: '!=', value: 'Joe' }],
    ['review_count<20', { kind: 'compare', field: 'review_count', operator: '<', value: '20' }],
    ['review_count<=20', { kind: 'compare', field: 'review_count', operator: '<=', value: '20' }],
    ['review_count>20', { kind: 'compare', field: 'review_count', operator: '>', value: '20' }],
    ['website=', { kind: 'compare', field: 'website', operator: '=', value: '' }],
    [
      'name="Joe, ""the"" <plumber>"',
      { kind: 'compare', field: 'name', operator: '=', value: 'Joe, "the" <plumber>' },
    ],
    ['name=" padded "', { kind: 'compare', field: 'name', operator: '=', value: ' padded ' }],
    [
      'category=Plumbing & Heating',
      { kind: 'compare', field: 'category', operator: '=', value: 'Plumbing & Heating' },
    ],
    ['website', { kind: 'present', field: 'website' }],
    ['!phone', { kind: 'missing', field: 'phone' }],
  ])('%s', (text, expected) => {
    expect(parseWhere(text)).toMatchObject(expected);
  });

  it.each([
    ['', 'the condition is empty'],
    ['   ', 'the condition is empty'],
    ['>=4', 'no field name before the operator'],
    ['rating=>4', 'the value starts with ">"'],
    ['name==Joe', 'the value starts with "="'],
    ['name="Joe', 'a quoted value must end with "'],
    ['name="Jo"e"', 'a quoted value must end with "'],
    ['two words', 'expected FIELD OP VALUE'],
    ['!', 'no field name before the operator'],
  ])('refuses %j (exit 2, with the grammar)', (text, why) => {
    let error: unknown;
    try {
      parseWhere(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(why);
    expect((error as UsageError).hint).toContain('FIELD OP VALUE');
  });

  it('refuses a misspelt field with a suggestion, and takes a known one', () => {
    const text = () => false;
    expect(() => checkWhereFields([parseWhere('ratng>4')], ['name', 'rating'], text)).toThrow(
      'unknown field in --where "ratng>4": ratng (did you mean rating?)',
    );
    expect(() =>
      checkWhereFields([parseWhere('rating>4'), parseWhere('!name')], ['name', 'rating'], text),
    ).not.toThrow();
  });

  it.each([
    ['rating>=4,5', 'rating is a number and "4,5" is not one (did you mean rating>=4.5?)', "'rating>=4.5'"],
    ['review_count>1,000', '(did you mean review_count>1000?)', "'review_count>1000'"],
    ['rating>=four', 'rating is a number and "four" is not one', "'rating>=4.5'"],
    ['rating!=n/a', 'rating is a number and "n/a" is not one', "'rating!=4.5'"],
  ])('refuses %s on a number field, with the number to write', (condition, message, fix) => {
    const check = () => checkWhereFields([parseWhere(condition)], undefined, (field) => field !== 'name');
    expect(check).toThrow(message);
    expect(check).toThrow(UsageError);
    try {
      check();
    } catch (error) {
      expect((error as UsageError).hint).toContain(fix);
    }
  });

  it.each(['rating>=4.5', 'rating=', 'rating~4', 'name>=four'])(
    'takes %s: a number, an empty value, a contains, a text field',
    (condition) => {
      expect(() =>
        checkWhereFields([parseWhere(condition)], undefined, (field) => field !== 'name'),
      ).not.toThrow();
    },
  );
});

describe('--where on numbers: exact digits', () => {
  it.each([
    ['rating>=4.5', { rating: 4.5 }, true],
    ['rating>=4.5', { rating: 4.49 }, false],
    ['rating>=4.5', { rating: new ExactNumber('4.50') }, true],
    ['rating=4.5', { rating: new ExactNumber('4.50') }, true],
    ['rating>4.5', { rating: new ExactNumber('4.50') }, false],
    ['rating<1e1', { rating: 9.99 }, true],
    ['rating>-1', { rating: -0.5 }, true],
    ['rating<-1', { rating: -0.5 }, false],
    ['rating>=0', { rating: 0 }, true],
    ['rating=0', { rating: new ExactNumber('-0.0') }, true],
    ['review_count>=20', { review_count: 20 }, true],
    ['review_count>=20', { review_count: 3 }, false],
    // Strings would say "3" > "20"; numbers do not.
    ['review_count>20', { review_count: 3 }, false],
    // 64-bit ids a double cannot tell apart.
    ['id=1790000000000000007', { id: new ExactNumber('1790000000000000007') }, true],
    ['id=1790000000000000008', { id: new ExactNumber('1790000000000000007') }, false],
    ['id>1790000000000000006', { id: new ExactNumber('1790000000000000007') }, true],
    ['id<1790000000000000007', { id: new ExactNumber('1790000000000000007') }, false],
    ['rating=0.1000000000000000055511', { rating: new ExactNumber('0.1') }, false],
    // A value that is not a number against a number: only != holds.
    ['rating=high', { rating: 4 }, false],
    ['rating!=high', { rating: 4 }, true],
    ['rating>high', { rating: 4 }, false],
    ['rating~4.', { rating: new ExactNumber('4.50') }, true],
  ])('%s on %o is %s', (condition, item, expected) => {
    expect(holds(condition, item)).toBe(expected);
  });
});

describe('--where on text, missing fields and unicode', () => {
  it.each([
    ['name=Joe', { name: 'Joe' }, true],
    ['name=joe', { name: 'Joe' }, false],
    ['name!=Joe', { name: 'Joe' }, false],
    ['name~joe', { name: 'Big JOE Plumbing' }, true],
    ['name~straße', { name: 'STRASSE 5' }, true],
    ['name~CAFÉ', { name: 'Cafe\u0301 Zoë' }, true],
    ['name~οδος', { name: 'ΟΔΟΣ' }, true],
    ['address~istanbul', { address: 'Bağdat Cd. 5, İstanbul' }, true],
    ['address~İSTANBUL', { address: 'istanbul' }, true],
    ['name~東京', { name: 'Café Zoë 東京' }, true],
    ['name~tokyo', { name: 'Café Zoë 東京' }, false],
    ['zip=02134', { zip: '02134' }, true],
    ['zip=2134', { zip: '02134' }, false],
    ['name<b', { name: 'apple' }, true],
    ['name<B', { name: 'apple' }, false],
    ['name>=apple', { name: 'apple' }, true],
    ['website', { website: 'https://x.example' }, true],
    ['website', { website: '' }, false],
    ['website', { website: null }, false],
    ['website', {}, false],
    ['!website', { website: '' }, true],
    ['!website', { website: null }, true],
    ['!website', {}, true],
    ['!website', { website: 'x' }, false],
    ['website=', {}, true],
    ['category!=Bar', {}, true],
    ['category=Bar', {}, false],
    ['category<z', {}, false],
    ['verified=true', { verified: true }, true],
    ['tags~"vip"', { tags: ['a', 'vip'] }, true],
    // Never an inherited property.
    ['constructor', {}, false],
  ])('%s on %o is %s', (condition, item, expected) => {
    expect(holds(condition, item)).toBe(expected);
  });

  it('orders text by code point, not by UTF-16 unit', () => {
    expect(compareCodePoints('\uff01', '😀')).toBeLessThan(0);
    expect('\uff01' < '😀').toBe(false);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('abc', 'abc')).toBe(0);
  });

  it('needs every condition, and counts what it left out', () => {
    const filter = createWhereFilter([parseWhere('rating>=4.5'), parseWhere('website')]);
    const kept = filter.keep([
      { name: 'a', rating: 4.8, website: 'a.example' },
      { name: 'b', rating: 4.9, website: null },
      { name: 'c', rating: 4.1, website: 'c.example' },
    ]);
    expect(kept.map((item) => item.name)).toEqual(['a']);
    expect(filter.filteredOut).toBe(2);
  });
});
