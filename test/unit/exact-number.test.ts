// The library's numbers: plain JS numbers wherever a JS number holds the value, ExactNumber (with
// toNumber/toBigInt/valueOf/toJSON) only where it cannot; the as-sent digits kept for the CLI.
import { describe, expect, it } from 'vitest';
import { asSent, ExactNumber, numberHoldsToken } from '../../src/api/exact-number.js';
import { parseLeadsPage, parseSearchResponse } from '../../src/api/parse-response.js';

const meta = '"meta":{"page":1,"limit":25,"total":1,"totalPages":1}';

describe('numberHoldsToken', () => {
  it.each([
    ['4.50', true],
    ['1e3', true],
    ['1E+3', true],
    ['-0', true],
    ['-0.0', true],
    ['0.1', true],
    ['100', true],
    ['1e23', true],
    ['9007199254740992', true],
    ['9007199254740993', false],
    ['1790000000000000007', false],
    ['0.1000000000000000055511', false],
    ['1e400', false],
    ['1e-400', false],
  ])('%s -> %s', (token, held) => {
    expect(numberHoldsToken(token)).toBe(held);
  });
});

describe('ExactNumber', () => {
  const id = new ExactNumber('9007199254740993');

  it('converts as a number would, and to the exact integer', () => {
    expect(id.toNumber()).toBe(9007199254740992);
    expect(id.toBigInt()).toBe(9007199254740993n);
    expect(new ExactNumber('-12e3').toBigInt()).toBe(-12000n);
    expect(new ExactNumber('1.50e1').toBigInt()).toBe(15n);
    expect(() => new ExactNumber('0.1000000000000000055511').toBigInt()).toThrow(RangeError);
  });

  it('does arithmetic with valueOf and keeps its digits as text', () => {
    const value = new ExactNumber('0.1000000000000000055511');
    expect((value as unknown as number) + 1).toBe(1.1);
    expect((id as unknown as number) > 5).toBe(true);
    expect(`${value}`).toBe('0.1000000000000000055511');
  });

  it('is written by JSON.stringify as a number, never a string', () => {
    const text = JSON.stringify({ id });
    const hasRawJson = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';
    expect(text).toBe(hasRawJson ? '{"id":9007199254740993}' : '{"id":9007199254740992}');
  });
});

describe('the typed reading of a page', () => {
  const body = `{"leads":[{"id":1790000000000000007,"name":"A","rating":4.50,"review_count":1e1,"lat":0.1000000000000000055511,"x":{"y":[4.50,-0]},"phone":null,"address":null,"website":null,"category":null,"saved_at":null}],${meta}}`;
  const [lead] = parseLeadsPage({ status: 200, body }, {}).leads;

  it('gives plain numbers where a JS number holds them, ExactNumber for a 64-bit id', () => {
    expect(lead?.rating).toBe(4.5);
    expect(lead?.review_count).toBe(10);
    expect(lead?.x).toEqual({ y: [4.5, -0] });
    expect(Object.is((lead!.x as { y: number[] }).y[1], -0)).toBe(true);
    // Not a lead field, beyond double precision: exact.
    expect(lead?.lat).toEqual(new ExactNumber('0.1000000000000000055511'));
    expect(lead?.id).toEqual(new ExactNumber('1790000000000000007'));
    expect(JSON.stringify({ rating: lead?.rating, x: lead?.x })).toBe('{"rating":4.5,"x":{"y":[4.5,0]}}');
  });

  it('keeps the digits as sent for the CLI', () => {
    const sent = asSent(lead!);
    expect(sent.rating).toEqual(new ExactNumber('4.50'));
    expect(sent.review_count).toEqual(new ExactNumber('1e1'));
    expect(sent.x).toEqual({ y: [new ExactNumber('4.50'), new ExactNumber('-0')] });
  });

  it('reads a known numeric field beyond double precision as its nearest number', () => {
    const search = parseSearchResponse(
      {
        status: 200,
        body: '{"results":[{"place_id":"p","lat":30.2672000000000000000001,"lng":-97.74}]}',
      },
      { query: 'q', location: 'l' },
    );
    const [result] = search.results;
    expect(result?.lat).toBe(30.2672);
    expect(asSent(result!).lat).toEqual(new ExactNumber('30.2672000000000000000001'));
  });
});
