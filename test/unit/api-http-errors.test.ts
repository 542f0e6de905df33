import { describe, expect, it } from 'vitest';
import {
  AuthError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  ValidationError,
} from '../../src/api/errors.js';
import { clientErrorFor, networkErrorFor, redirectError, serverErrorFor } from '../../src/api/http-errors.js';

const url = new URL('https://api.example.com/api/v1/leads?page=1');
const json = (status: number, value: unknown) => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json',
});

describe('clientErrorFor', () => {
  it('401 -> AuthError, exit 3, with a hint for each face', () => {
    const error = clientErrorFor(json(401, { error: 'Invalid API key' }), url);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('the server rejected the API key (401): Invalid API key');
    expect(error.code).toBe('unauthorized');
    // The library's user passed the key: the CLI's `config set` is the CLI's word only.
    expect(error.hint).toBe('check the `apiKey` given to LeadClient: the server does not accept it');
    expect(error.cliHint).toMatch(/run: leadctl config set api-key/);
  });

  it('403 -> ForbiddenError, exit 4, with the server message and an account hint', () => {
    const error = clientErrorFor(json(403, { detail: 'Account deactivated' }), url);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe('access denied (403): Account deactivated');
    expect(error.serverMessage).toBe('Account deactivated');
    expect(error.hint).toMatch(/deactivated.*plan/);
  });

  it.each([400, 422])('%i -> ValidationError, exit 2', (status) => {
    const error = clientErrorFor(json(status, { message: 'location is required' }), url);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`server refused the request (${status}): location is required`);
  });

  it('404 -> NotFoundError, exit 2, hinting at the baseUrl option', () => {
    const error = clientErrorFor({ status: 404, body: '' }, url);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('not found (404): /api/v1/leads');
    expect(error.hint).toMatch(/check `baseUrl`/);
  });

  it('other 4xx -> exit 2 without a server message when the body has none', () => {
    const error = clientErrorFor({ status: 409, body: '' }, url);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('server refused the request (409)');
  });
});

describe('serverErrorFor and redirectError', () => {
  it('quotes a plain-text 5xx body and counts attempts', () => {
    const error = serverErrorFor(
      { status: 500, body: 'Internal Server Error\n', contentType: 'text/plain' },
      4,
    );
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe('server error (500) after 4 attempts: Internal Server Error');
  });

  it('names the origin a redirect points to, and refuses to follow it', () => {
    const error = redirectError(301, 'https://evil.example.net/steal?x=1', url);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(7);
    expect(error.message).toBe(
      'the server redirected (301) to https://evil.example.net; leadctl does not follow redirects with the API key attached',
    );
    expect(redirectError(302, '/elsewhere', url).message).toMatch(/to https:\/\/api\.example\.com;/);
    expect(redirectError(307, undefined, url).message).toMatch(/to another address;/);
  });
});

describe('networkErrorFor', () => {
  const local = new URL('http://127.0.0.1:1234/api/v1/leads');

  it.each([
    ['ECONNREFUSED', 'refused', 'cannot reach 127.0.0.1:1234 (connection refused)'],
    ['ECONNRESET', 'reset', 'connection to 127.0.0.1:1234 was closed before the answer was complete (reset)'],
    [
      'UND_ERR_SOCKET',
      'reset',
      'connection to 127.0.0.1:1234 was closed before the answer was complete (reset)',
    ],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', 'no answer from 127.0.0.1:1234 within 30 s (timeout)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', 'no answer from 127.0.0.1:1234 within 30 s (timeout)'],
    ['ENOTFOUND', 'dns', 'cannot reach 127.0.0.1:1234 (DNS lookup failed: ENOTFOUND)'],
    ['EAI_AGAIN', 'dns', 'cannot reach 127.0.0.1:1234 (DNS lookup failed: EAI_AGAIN)'],
    ['CERT_HAS_EXPIRED', 'tls', 'secure connection to 127.0.0.1:1234 failed (CERT_HAS_EXPIRED)'],
  ])('%s -> %s', (code, kind, message) => {
    const error = networkErrorFor(Object.assign(new Error('x'), { code }), local, 30_000);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).kind).toBe(kind);
    expect(error?.message).toBe(message);
    expect(error?.exitCode).toBe(6);
  });

  it('finds the code on a cause', () => {
    const wrapped = new Error('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    expect((networkErrorFor(wrapped, local, 1000) as NetworkError).kind).toBe('refused');
  });

  it('calls a non-HTTP answer a protocol error', () => {
    const error = networkErrorFor(
      Object.assign(new Error('x'), { code: 'HPE_INVALID_CONSTANT' }),
      local,
      1000,
    );
    expect(error).toBeInstanceOf(ProtocolError);
  });

  it('leaves errors that are not network failures alone', () => {
    expect(networkErrorFor(new TypeError('bug'), local, 1000)).toBeUndefined();
    expect(
      networkErrorFor(Object.assign(new Error('x'), { code: 'UND_ERR_INVALID_ARG' }), local, 1000),
    ).toBeUndefined();
  });
});
