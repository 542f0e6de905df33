import { describe, expect, it } from 'vitest';
import { extractServerMessage } from '../../src/api/http-errors.js';

const body = (value: unknown) => JSON.stringify(value);

describe('extractServerMessage', () => {
  it.each([
    ['message', body({ message: 'location is required' }), 'location is required'],
    ['error string', body({ error: 'Invalid API key' }), 'Invalid API key'],
    [
      'error object',
      body({ error: { code: 'rate_limited', message: 'Daily limit exceeded' } }),
      'Daily limit exceeded',
    ],
    ['message beside an error code', body({ error: 'rate_limited', message: 'Too many' }), 'Too many'],
    ['detail string', body({ detail: 'Account deactivated' }), 'Account deactivated'],
    ['detail object with msg', body({ detail: { msg: 'bad radius' } }), 'bad radius'],
    ['detail object with message', body({ detail: { message: 'bad page' } }), 'bad page'],
    [
      'FastAPI detail list',
      body({
        detail: [
          { loc: ['body', 'query'], msg: 'field required', type: 'missing' },
          { loc: ['body', 'location'], msg: 'field required' },
        ],
      }),
      'query: field required; location: field required',
    ],
    [
      'errors of strings',
      body({ errors: ['query is required', 'location is required'] }),
      'query is required; location is required',
    ],
    [
      'errors of objects',
      body({ errors: [{ field: 'radius', message: 'must be at most 50' }] }),
      'radius: must be at most 50',
    ],
    ['errors as a field map', body({ errors: { location: ['is required'] } }), 'location: is required'],
    ['problem details', body({ type: 'about:blank', title: 'Unprocessable', status: 422 }), 'Unprocessable'],
    ['a JSON string', body('plain oops'), 'plain oops'],
  ])('reads %s', (_shape, text, expected) => {
    expect(extractServerMessage(text, 'application/json')).toBe(expected);
  });

  it('reads the first non-empty line of plain text, trimmed', () => {
    expect(extractServerMessage('\n  Internal Server Error  \nstack trace here', 'text/plain')).toBe(
      'Internal Server Error',
    );
  });

  it('finds JSON by its look when the content type is wrong', () => {
    expect(extractServerMessage('{"message":"hi"}', 'text/plain')).toBe('hi');
  });

  it('keeps invalid JSON as text', () => {
    expect(extractServerMessage('{oops', 'application/json')).toBe('{oops');
  });

  it('reads the title of an HTML page, not its markup', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>...</body></html>';
    expect(extractServerMessage(html, 'text/html')).toBe('502 Bad Gateway');
    expect(extractServerMessage('<html><body><p>x</p></body></html>', 'text/html')).toBeUndefined();
  });

  it('caps the length at 200 characters', () => {
    const message = extractServerMessage('x'.repeat(500));
    expect(message).toHaveLength(200);
    expect(message?.endsWith('…')).toBe(true);
  });

  it('makes terminal escape sequences visible instead of passing them through', () => {
    expect(extractServerMessage(body({ message: 'bad\u001b[31mred\u0007' }))).toBe('bad\\x1b[31mred\\x07');
  });

  it('returns nothing for empty bodies and bodies without a message', () => {
    expect(extractServerMessage('')).toBeUndefined();
    expect(extractServerMessage('   ')).toBeUndefined();
    expect(extractServerMessage(body({ status: 500 }), 'application/json')).toBeUndefined();
    expect(extractServerMessage(body({ message: '' }), 'application/json')).toBeUndefined();
  });
});
