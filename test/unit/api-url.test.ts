import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { apiUrl, assertKeyTransportIsSafe, isLoopbackHost, resolveApiRoot } from '../../src/api/url.js';

describe('resolveApiRoot', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/api/v1/'],
    ['https://api.example.com/', 'https://api.example.com/api/v1/'],
    ['https://api.example.com/api/v1', 'https://api.example.com/api/v1/'],
    ['https://api.example.com/api/v1/', 'https://api.example.com/api/v1/'],
    ['https://api.example.com/API/V1', 'https://api.example.com/api/v1/'],
    ['https://example.com/leads-api', 'https://example.com/leads-api/api/v1/'],
    ['https://example.com/leads-api/api/v1//', 'https://example.com/leads-api/api/v1/'],
    ['  http://127.0.0.1:8080  ', 'http://127.0.0.1:8080/api/v1/'],
  ])('%s -> %s', (input, expected) => {
    expect(resolveApiRoot(input).href).toBe(expected);
  });

  it.each([
    ['not a url', /invalid base URL/],
    ['api.example.com', /invalid base URL/],
    ['ftp://api.example.com', /must start with https:\/\/ or http:\/\//],
    ['https://user:pw@api.example.com', /user name or password/],
    ['https://api.example.com/?x=1', /query string or fragment/],
  ])('refuses %s with a usage error', (input, message) => {
    expect(() => resolveApiRoot(input)).toThrow(UsageError);
    expect(() => resolveApiRoot(input)).toThrow(message);
  });
});

describe('apiUrl', () => {
  it('appends the path and only the query values that are set', () => {
    const root = resolveApiRoot('https://h.example/base');
    expect(apiUrl(root, 'leads', { page: 2, limit: undefined }).href).toBe(
      'https://h.example/base/api/v1/leads?page=2',
    );
    expect(apiUrl(root, '/search').href).toBe('https://h.example/base/api/v1/search');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    '127.0.0.1',
    '127.1.2.3',
    '[::1]',
    '::1',
    '[::ffff:7f00:1]',
  ])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));

  it.each([
    'example.com',
    '10.0.0.1',
    '128.0.0.1',
    '0.0.0.0',
    '[::2]',
    'localhost.example.com',
    '127.0.0.1.nip.io',
  ])('%s is not loopback', (host) => expect(isLoopbackHost(host)).toBe(false));

  it('agrees with how URL writes an IPv4-mapped loopback address', () => {
    expect(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe(true);
    expect(isLoopbackHost(new URL('http://[::ffff:10.0.0.1]/').hostname)).toBe(false);
  });
});

describe('assertKeyTransportIsSafe', () => {
  it('refuses plain http to another host, saying why, with exit code 2', () => {
    const root = resolveApiRoot('http://api.example.com');
    const attempt = () => assertKeyTransportIsSafe(root);
    expect(attempt).toThrow(/refusing to send the API key over plain http:\/\/ to api\.example\.com/);
    try {
      attempt();
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as UsageError).hint).toMatch(/https:\/\/api\.example\.com/);
    }
  });

  it('allows https anywhere and http to loopback', () => {
    for (const base of [
      'https://api.example.com',
      'http://127.0.0.1:3000',
      'http://localhost',
      'http://[::1]:80',
    ]) {
      expect(() => assertKeyTransportIsSafe(resolveApiRoot(base))).not.toThrow();
    }
  });
});
