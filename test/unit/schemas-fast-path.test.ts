// Item parsing in plain code (fast-parse.ts) must give exactly what the lenient zod schemas gave: the
// same values, the same key order (json output keeps it), the same errors. The reference here is the
// zod schema and the error wording of parseList as they stood before, written out in full.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ItemProblem,
  itemNormalizer,
  toIdentity,
  toNumberOrNull,
  toTextOrNull,
} from '../../src/api/fast-parse.js';
import { parseLeadsPage, parseSearchResponse } from '../../src/api/schemas.js';

const number = z.preprocess(toNumberOrNull, z.number().nullable()).optional();
const text = z.preprocess(toTextOrNull, z.string().nullable()).optional();
const identity = z.preprocess(toIdentity, z.string({ error: 'is missing' }).min(1, { error: 'is empty' }));
const referenceLead = z.looseObject({
  id: identity,
  name: text,
  address: text,
  phone: text,
  website: text,
  rating: number,
  review_count: number,
  category: text,
  saved_at: text,
});

const meta = { page: 1, limit: 25, total: 1, totalPages: 1 };
const body = (leads: string) => ({
  status: 200,
  body: `{"leads":[${leads}],"meta":${JSON.stringify(meta)}}`,
});

/** Both parsers on the same JSON text (each gets its own fresh objects). */
function bothWays(itemJson: string) {
  const expected = referenceLead.safeParse(JSON.parse(itemJson));
  let actual: { ok: true; value: unknown } | { ok: false; message: string };
  try {
    actual = { ok: true, value: parseLeadsPage(body(itemJson), {}).leads[0] };
  } catch (error) {
    actual = { ok: false, message: (error as Error).message };
  }
  return { expected, actual };
}

const ITEMS = [
  // well-formed, as servers send them
  '{"id":"a","name":"Acme","address":"1 Main St","phone":"+1 512-555-0101","website":null,"rating":4.5,"review_count":12,"category":"Plumber","saved_at":"2026-01-01T00:00:00Z"}',
  '{"id":"a"}',
  '{"id":"a","rating":null,"phone":null}',
  // coercions
  '{"id":42,"rating":"4.5","review_count":" 12 ","phone":15125550101,"name":true,"category":{"x":1},"website":["w"]}',
  '{"id":"a","rating":"N/A","review_count":"","address":false}',
  '{"id":"a","rating":1e999,"review_count":"-.5e2"}',
  '{"id":1.5,"rating":"+3","review_count":"1e3"}',
  // unknown fields: kept, after the known ones, in arrival order
  '{"id":"a","name":"Joe","tags":["x"],"owner":{"email":"e@x"},"score":"7"}',
  '{"extra":1,"name":"x","id":"a","rating":"2"}',
  '{"rating":2,"id":"a"}',
  '{"id":"a","10":"ten","2":"two","name":"n"}',
  '{"id":"a","__proto__":{"polluted":true},"name":"n"}',
  '{"id":"a","name":"n","__proto__":{"polluted":true}}',
  '{"id":"a","constructor":"c","toString":"t"}',
  // refused
  '{"name":"x"}',
  '{"id":""}',
  '{"id":null}',
  '{"id":true}',
  '{"id":{"v":1}}',
  '{"id":"a","rating":"1e999"}',
  '{"id":"","rating":"1e999"}',
  '{"id":"a","review_count":"1e999","rating":"-1e999"}',
  '{"name":"x","rating":"1e999"}',
  '{"id":"a","__proto__":{"p":1},"rating":"1e999"}',
  '["a"]',
  '"a"',
  'null',
  '7',
  'true',
  '[]',
];

/** The error parseList wrote from zod's first issue. */
function zodMessage(item: unknown, issue: { path: PropertyKey[]; message: string } | undefined): string {
  const where = `leads[0]${issue?.path.length ? `.${issue.path.join('.')}` : ''}`;
  const what =
    typeof item !== 'object' || item === null ? 'is not an object' : (issue?.message ?? 'is invalid');
  return `server answered 200 with a malformed item: ${where} ${what}`;
}

describe('plain-code parsing gives what zod gave', () => {
  it.each(ITEMS)('%s', (itemJson) => {
    const { expected, actual } = bothWays(itemJson);
    if (expected.success) {
      expect(actual).toEqual({ ok: true, value: expected.data });
      const value = actual.ok ? (actual.value as object) : {};
      expect(Object.keys(value)).toEqual(Object.keys(expected.data));
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    } else {
      expect(actual).toEqual({
        ok: false,
        message: zodMessage(JSON.parse(itemJson), expected.error.issues[0]),
      });
    }
  });

  it('words errors as before', () => {
    expect(bothWays('{"id":"a","rating":"1e999"}').actual).toEqual({
      ok: false,
      message:
        'server answered 200 with a malformed item: leads[0].rating Invalid input: expected number, received Infinity',
    });
    expect(bothWays('{"id":""}').actual).toEqual({
      ok: false,
      message: 'server answered 200 with a malformed item: leads[0].id is empty',
    });
    expect(bothWays('["a"]').actual).toEqual({
      ok: false,
      message:
        'server answered 200 with a malformed item: leads[0] Invalid input: expected object, received array',
    });
    expect(bothWays('7').actual).toEqual({
      ok: false,
      message: 'server answered 200 with a malformed item: leads[0] is not an object',
    });
  });

  it('coerces in place when the keys are in order, else copies', () => {
    const normalize = itemNormalizer({ id: 'identity', name: 'text', rating: 'number' });
    const inOrder = { id: 'a', name: 'n', rating: '4', extra: 1 };
    expect(normalize(inOrder)).toBe(inOrder);
    expect(inOrder).toEqual({ id: 'a', name: 'n', rating: 4, extra: 1 });
    const outOfOrder = { extra: 1, rating: 4, id: 'a' };
    expect(Object.keys(normalize(outOfOrder))).toEqual(['id', 'rating', 'extra']);
    expect(normalize({ id: '' })).toEqual(new ItemProblem('id', 'is empty'));
    expect(normalize({ name: 'x', rating: '-1e999' })).toEqual(new ItemProblem('id', 'is missing'));
    expect(normalize({ id: 'a', rating: '-1e999' })).toEqual(
      new ItemProblem('rating', 'Invalid input: expected number, received -Infinity'),
    );
  });

  it('completes a search response, count coerced like a number field', () => {
    const ok = (value: unknown) => ({ status: 200, body: JSON.stringify(value) });
    const request = { query: 'q', location: 'l' };
    expect(parseSearchResponse(ok({ results: [], count: 'x' }), request).count).toBe(0);
    expect(parseSearchResponse(ok({ results: [], count: '3', query: 7 }), request)).toMatchObject({
      count: 3,
      query: '7',
    });
    // zod threw its own error here; now it is a ProtocolError like any malformed answer.
    expect(() => parseSearchResponse(ok({ results: [], count: '1e999' }), request)).toThrow(
      'server answered 200 with a count that is not a number: Infinity',
    );
  });
});
