import { describe, expect, it } from 'vitest';
import { closestMatch, parseConfigValue } from '../../src/config/keys.js';
import { maskApiKey } from '../../src/text/secrets.js';

const argument = { kind: 'argument' } as const;

describe('maskApiKey', () => {
  it('shows "…" and the last 4 characters', () => {
    expect(maskApiKey('sk_live_abcdefgh1234')).toBe('…1234');
  });
  it('masks a short key whole, since its last 4 would give most of it away', () => {
    expect(maskApiKey('abc12345')).toBe('…');
    expect(maskApiKey('abcdefgh1234')).toBe('…1234');
  });
});

describe('parseConfigValue', () => {
  it.each([
    ['timeout', '30', 30],
    ['timeout', '.5', 0.5],
    ['timeout', ' 7 ', 7],
    ['max-wait', '0', 0],
    ['retries', '10', 10],
    ['base-url', 'https://api.example.com/prefix/', 'https://api.example.com/prefix/'],
  ] as const)('%s %j -> %j', (key, raw, expected) => {
    expect(parseConfigValue(key, raw, argument)).toBe(expected);
  });

  it.each([
    ['timeout', '1e3', 'expected a number of seconds > 0'],
    ['timeout', '0x10', 'expected a number of seconds > 0'],
    ['timeout', '', 'expected a number of seconds > 0'],
    ['timeout', '86401', 'expected at most 86400 seconds'],
    ['retries', '-1', 'expected a whole number from 0 to 10'],
    ['base-url', 'https://h.test/?x=1', 'expected a base URL without ?query or #fragment'],
    ['api-key', '', 'the key is empty'],
    ['api-key', 'ключ-1234567890', 'expected printable ASCII characters without spaces'],
  ] as const)('refuses %s %j: %s', (key, raw, expected) => {
    expect(() => parseConfigValue(key, raw, argument)).toThrow(expected);
  });

  it('never echoes the password of a db-url it refuses', () => {
    expect(() => parseConfigValue('db-url', 'mysql://user:hunter2@db.test/leads', argument)).toThrow(
      'invalid db-url "mysql://***@db.test/leads": expected a postgres:// or postgresql:// URL',
    );
  });

  it('quotes a value with control characters escaped', () => {
    expect(() => parseConfigValue('format', 'x\u001b[31m', { kind: 'flag', name: '--format' })).toThrow(
      'invalid --format "x\\u001b[31m": expected one of',
    );
  });
});

describe('closestMatch', () => {
  const keys = ['api-key', 'base-url', 'format', 'timeout', 'retries', 'max-wait'];
  it.each([
    ['api_key', 'api-key'],
    ['APIKEY', 'api-key'],
    ['baseurl', 'base-url'],
    ['timout', 'timeout'],
    ['maxwait', 'max-wait'],
    ['retry', 'retries'],
    ['colour', undefined],
  ])('%s -> %s', (input, expected) => {
    expect(closestMatch(input, keys)).toBe(expected);
  });
});
