import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/api/errors.js';
import { AS_SENT, asSent, ExactNumber } from '../../src/api/exact-number.js';
import {
  completeMeta,
  parseHistoryPage,
  parseLeadsPage,
  parseSearchResponse,
} from '../../src/api/parse-response.js';
import { readNumber } from '../../src/api/schemas.js';

const ok = (value: unknown) => ({
  status: 200,
  body: JSON.stringify(value),
  contentType: 'application/json',
});
const meta = { page: 1, limit: 25, total: 1, totalPages: 1 };

function protocolError(run: () => unknown): ProtocolError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).exitCode).toBe(7);
    return error as ProtocolError;
  }
  throw new Error('expected a ProtocolError');
}

describe('lead items', () => {
  it('accepts nulls and missing fields: typed as null, kept out of the as-sent item', () => {
    const page = parseLeadsPage(ok({ leads: [{ id: 'a', phone: null, website: null }], meta }), {});
    const [lead] = page.leads;
    expect(asSent(lead!)).toEqual({ id: 'a', phone: null, website: null });
    expect('rating' in asSent(lead!)).toBe(false);
    expect(lead).toEqual({
      id: 'a',
      phone: null,
      website: null,
      name: null,
      address: null,
      rating: null,
      review_count: null,
      category: null,
      saved_at: null,
    });
    // The as-sent item rides along unseen: not a key, not in JSON, not in a spread copy.
    expect(Object.getOwnPropertyDescriptor(lead, AS_SENT)?.enumerable).toBe(false);
    expect(JSON.parse(JSON.stringify(lead))).toEqual(lead);
    expect(AS_SENT in { ...lead }).toBe(false);
  });

  it('hands out an item the typed reading does not change as it is, with no copy', () => {
    const full = {
      id: 'a',
      name: 'n',
      address: 'a',
      phone: '+1',
      website: 'w',
      rating: 4.5,
      review_count: 3,
      category: 'c',
      saved_at: '2026-01-01T00:00:00Z',
      extra: { deep: [1, 'x'] },
    };
    const [lead] = parseLeadsPage(ok({ leads: [full], meta }), {}).leads;
    expect(lead).toEqual(full);
    expect(asSent(lead!)).toBe(lead);
  });

  it('turns numeric strings in numeric fields into numbers with their digits, and non-numbers into null', () => {
    const lead = { id: 'a', rating: '4.5', review_count: ' 12 ', phone: 15125550101, category: { x: 1 } };
    const [parsed] = parseLeadsPage(ok({ leads: [lead], meta }), {}).leads;
    // Text fields are kept as sent, whatever their JSON type: only numeric fields are read leniently.
    expect(asSent(parsed!)).toEqual({
      id: 'a',
      rating: 4.5,
      review_count: 12,
      phone: 15125550101,
      category: { x: 1 },
    });
    // Typed, a text field is a string or null: a number as its text, an object as null.
    expect(parsed).toMatchObject({ rating: 4.5, review_count: 12, phone: '15125550101', category: null });
    const second = parseLeadsPage(ok({ leads: [{ id: 'b', rating: 'N/A', review_count: '' }], meta }), {})
      .leads[0];
    expect(asSent(second!)).toEqual({ id: 'b', rating: null, review_count: null });
    const spelled = parseLeadsPage(
      ok({ leads: [{ id: 'c', rating: '4.50', review_count: '+007', lat: '.5' }], meta }),
      {},
    ).leads[0];
    expect(asSent(spelled!).rating).toEqual(new ExactNumber('4.50'));
    expect(spelled?.rating).toBe(4.5);
    expect(spelled?.review_count).toBe(7);
    expect(spelled?.lat).toBe('.5'); // not a lead field: kept as sent
  });

  it('keeps unknown fields untouched', () => {
    const lead = { id: 'a', name: 'Joe', tags: ['x'], owner: { email: 'e@x' }, score: '7' };
    const [parsed] = parseLeadsPage(ok({ leads: [lead], meta }), {}).leads;
    expect(asSent(parsed!)).toEqual(lead);
    expect(parsed).toMatchObject(lead);
  });

  it('keeps every key in the order the server sent it, odd keys included', () => {
    const body =
      '{"leads":[{"zz":1,"rating":"4","__proto__":{"x":1},"":2,"a\\"b":3,"id":"a"}],"meta":{"total":1}}';
    const [typed] = parseLeadsPage({ status: 200, body }, {}).leads;
    const lead = asSent(typed!);
    expect(Object.keys(lead)).toEqual(['zz', 'rating', '__proto__', '', 'a"b', 'id']);
    expect(lead.rating).toBe(4);
    expect(Object.getPrototypeOf(lead)).toBe(Object.prototype);
    // The typed copy keeps the odd keys as own keys too, then the fields the server left out.
    expect(Object.keys(typed!).slice(0, 6)).toEqual(['zz', 'rating', '__proto__', '', 'a"b', 'id']);
    expect(Object.getPrototypeOf(typed)).toBe(Object.prototype);
  });

  it('keeps a numeric id as the number sent, a missing or null one as sent, and refuses a bad one', () => {
    expect(parseLeadsPage(ok({ leads: [{ id: 42 }], meta }), {}).leads[0]?.id).toBe(42);
    const big = parseLeadsPage(
      { status: 200, body: '{"leads":[{"id":1790000000000000007}],"meta":{"total":1}}' },
      {},
    );
    expect(big.leads[0]?.id).toEqual(new ExactNumber('1790000000000000007'));
    // Only paging needs ids (it refuses an item without one, walk.ts): a single page keeps it as sent.
    const leads = [{ id: 'a' }, { name: 'x' }, { id: null, name: 'y' }];
    const read = parseLeadsPage(ok({ leads, meta }), {}).leads;
    expect(read.map((lead) => asSent(lead))).toEqual(leads);
    expect(read.map((lead) => lead.id)).toEqual(['a', null, null]);
    const empty = protocolError(() => parseLeadsPage(ok({ leads: [{ id: '' }], meta }), {}));
    expect(empty.message).toBe('server answered 200 with a malformed item: leads[0].id is empty');
    const odd = protocolError(() => parseLeadsPage(ok({ leads: [{ id: true }], meta }), {}));
    expect(odd.message).toMatch(/leads\[0\]\.id is neither a string nor a number$/);
    const notObject = protocolError(() => parseLeadsPage(ok({ leads: ['a'], meta }), {}));
    expect(notObject.message).toMatch(/leads\[0\] is not an object/);
  });
});

describe('envelopes', () => {
  it('refuses a body that is not JSON, quoting status and the start of the body', () => {
    const html = `<!DOCTYPE html><html>${'x'.repeat(400)}`;
    const error = protocolError(() =>
      parseLeadsPage({ status: 200, body: html, contentType: 'text/html' }, {}),
    );
    expect(error.message).toBe(
      `server answered 200 with something that is not JSON: "${html.slice(0, 199)}…"`,
    );
    expect(error.hint).toMatch(/`baseUrl`/);
  });

  it('refuses a body without its list', () => {
    const error = protocolError(() => parseHistoryPage(ok({ data: [], meta }), {}));
    expect(error.message).toBe(
      'server answered 200 without a "history" list: "{"data":[],"meta":{"page":1,"limit":25,"total":1,"totalPages":1}}"',
    );
    protocolError(() => parseLeadsPage(ok([{ id: 'a' }]), {}));
    protocolError(() => parseLeadsPage({ status: 200, body: '' }, {}));
  });

  it('reads a null list as empty (as Go servers write empty slices)', () => {
    expect(parseLeadsPage(ok({ leads: null, meta: { ...meta, total: 0 } }), {}).leads).toEqual([]);
  });

  it('parses history entries leniently', () => {
    const entry = {
      id: 'h1',
      query: 'plumber',
      location: null,
      results_count: '20',
      created_at: '2026-01-01T00:00:00Z',
    };
    expect(parseHistoryPage(ok({ history: [entry], meta }), {}).history[0]).toEqual({
      ...entry,
      results_count: 20,
    });
  });

  it('completes a search response from its results and the request', () => {
    const body = { results: [{ place_id: 'p1', lat: '30.26', lng: -97.74 }], cached: true };
    const response = parseSearchResponse(ok(body), { query: 'plumber', location: 'Austin' });
    expect({ ...response, results: response.results.map((result) => asSent(result)) }).toEqual({
      results: [{ place_id: 'p1', lat: 30.26, lng: -97.74 }],
      cached: true,
      count: 1,
      query: 'plumber',
      location: 'Austin',
    });
    const echoed = parseSearchResponse(
      ok({ results: [], count: '0', query: 'Plumber', location: 'Austin, TX' }),
      {
        query: 'plumber',
        location: 'Austin',
      },
    );
    expect(echoed).toMatchObject({ count: 0, query: 'Plumber', location: 'Austin, TX' });
    const unplaced = parseSearchResponse(ok({ results: [{ name: 'x' }, { place_id: null }] }), {
      query: 'q',
      location: 'l',
    });
    expect(unplaced.results.map((result) => asSent(result))).toEqual([{ name: 'x' }, { place_id: null }]);
    expect(unplaced.results.map((result) => result.place_id)).toEqual([null, null]);
  });
});

describe('completeMeta', () => {
  it('reads meta numbers written any JSON way, and an unreadable meta as missing', () => {
    const body = '{"leads":[],"meta":{"page":1.0,"limit":25,"total":0e0,"totalPages":0}}';
    expect(parseLeadsPage({ status: 200, body }, {}).meta).toEqual({
      page: 1,
      limit: 25,
      total: 0,
      totalPages: 0,
    });
    expect(completeMeta('oops', { page: 2, limit: 10 }, 3)).toEqual({
      page: 2,
      limit: 10,
      total: 13,
      totalPages: 2,
    });
  });

  it('keeps a complete meta, coercing string numbers', () => {
    expect(completeMeta({ page: '2', limit: '10', total: '35', totalPages: '4' }, {}, 10)).toEqual({
      page: 2,
      limit: 10,
      total: 35,
      totalPages: 4,
    });
  });

  it('derives totalPages from total and limit', () => {
    expect(completeMeta({ page: 1, limit: 10, total: 35 }, {}, 10)).toMatchObject({ totalPages: 4 });
    expect(completeMeta({ page: 1, limit: 10, total: 0 }, {}, 0)).toMatchObject({ totalPages: 0 });
  });

  it('fills page and limit from the request, then from the spec defaults', () => {
    expect(completeMeta({ total: 250 }, { page: 3, limit: 100 }, 50)).toEqual({
      page: 3,
      limit: 100,
      total: 250,
      totalPages: 3,
    });
    expect(completeMeta({ total: 30 }, {}, 25)).toEqual({ page: 1, limit: 25, total: 30, totalPages: 2 });
  });

  it('derives a missing total only on a visibly last page', () => {
    expect(completeMeta(undefined, { page: 3, limit: 10 }, 4)).toEqual({
      page: 3,
      limit: 10,
      total: 24,
      totalPages: 3,
    });
    expect(completeMeta({ page: 2, limit: 10, totalPages: 2 }, {}, 10)).toMatchObject({ total: 20 });
    const error = protocolError(() => completeMeta(undefined, { page: 1, limit: 10 }, 10));
    expect(error.message).toMatch(/without meta\.total/);
  });
});

describe('readNumber (the lenient reading of numeric fields)', () => {
  it.each([
    ['4.5', 4.5],
    [' 12 ', 12],
    ['4.50', new ExactNumber('4.50')],
    ['+5', 5],
    ['007', 7],
    ['.5', 0.5],
    ['5.', 5],
    ['-1E3', new ExactNumber('-1E3')],
    ['1e999', new ExactNumber('1e999')],
    ['N/A', null],
    ['', null],
    ['.', null],
    ['NaN', null],
    ['Infinity', null],
    [true, null],
    [{ x: 1 }, null],
    [null, null],
    [3, 3],
    [Number.POSITIVE_INFINITY, null],
  ])('%j -> %j', (input, expected) => {
    expect(readNumber(input)).toEqual(expected);
  });
});
