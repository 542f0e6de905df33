import { describe, expect, it } from 'vitest';
import { registrableDomain } from '../../src/text/domain.js';

describe('registrableDomain', () => {
  it.each([
    ['https://www.shop.example.co.uk/x', 'example.co.uk'],
    ['http://www.acme.com', 'acme.com'],
    ['acme.com/contact', 'acme.com'],
    ['  https://Plumbing.Example.com.au  ', 'example.com.au'],
    ['https://joes.wixsite.com/home', 'joes.wixsite.com'],
    ['https://www.joes.wordpress.com/', 'joes.wordpress.com'],
    ['https://wordpress.com/', 'wordpress.com'],
  ])('%s -> %s', (website, domain) => {
    expect(registrableDomain(website)).toBe(domain);
  });

  it.each([[''], ['   '], ['not a url'], ['http://192.168.1.10/'], ['https://localhost:3000'], [null], [42]])(
    'no domain for %j',
    (website) => {
      expect(registrableDomain(website)).toBeUndefined();
    },
  );
});
