import { describe, expect, it } from 'vitest';
import {
  businessKeys,
  isSharedHost,
  normalizePhone,
  normalizeText,
  SuppressionIndex,
  websiteHost,
} from '../../src/text/business-match.js';
import { registrableDomain } from '../../src/text/domain.js';

const indexOf = (...items: unknown[]) => {
  const index = new SuppressionIndex(registrableDomain);
  for (const item of items) index.add(item);
  return index;
};

describe('id rule', () => {
  it('matches place_id and id as one key space, trimmed, exact case', () => {
    const index = indexOf({ id: 'ChIJ123' });
    expect(index.matches({ place_id: ' ChIJ123 ' })).toBe('id');
    expect(index.matches({ place_id: 'chij123' })).toBeUndefined();
  });

  it('ignores empty, null and non-string ids; a numeric id counts', () => {
    expect(businessKeys({ id: '', place_id: null }, registrableDomain)).toEqual([]);
    expect(businessKeys({ id: { x: 1 } }, registrableDomain)).toEqual([]);
    expect(indexOf({ id: 42 }).matches({ place_id: '42' })).toBe('id');
  });
});

describe('phone rule', () => {
  it('keeps only digits, so formatting does not matter', () => {
    expect(normalizePhone('+1 (512) 555-0100')).toBe('15125550100');
    expect(normalizePhone('+1.512.555.0100')).toBe('15125550100');
    expect(normalizePhone('tel:+15125550100')).toBe('15125550100');
  });

  it('reads a 10-digit national number, or 11 starting with 1, as North American', () => {
    expect(normalizePhone('(512) 555-0100')).toBe('15125550100');
    expect(normalizePhone('1-512-555-0100')).toBe('15125550100');
    expect(indexOf({ phone: '+15125550100' }).matches({ phone: '512 555 0100' })).toBe('phone');
  });

  it('treats 00 as the international prefix and keeps other calling codes', () => {
    expect(normalizePhone('0044 20 7946 0958')).toBe('442079460958');
    expect(normalizePhone('+44 (0)20 7946 0958')).toBe('442079460958');
    expect(normalizePhone('+44 20 7946 0958')).toBe('442079460958');
  });

  it('does not match the same national digits under different calling codes', () => {
    const index = indexOf({ phone: '+44 207 946 0958' });
    expect(index.matches({ phone: '+1 207 946 0958' })).toBeUndefined();
  });

  it('compares other national numbers by their digits as written', () => {
    expect(normalizePhone('020 7946 0958')).toBe('02079460958');
  });

  it('drops extensions', () => {
    expect(normalizePhone('+1 512 555 0100 ext. 12')).toBe('15125550100');
    expect(normalizePhone('512-555-0100 x12')).toBe('15125550100');
    expect(normalizePhone('+15125550100;ext=12')).toBe('15125550100');
    expect(normalizePhone('512 555 0100 #3')).toBe('15125550100');
  });

  it('gives no key for short, empty or non-string phones', () => {
    expect(normalizePhone('911')).toBeUndefined();
    expect(normalizePhone('555-01')).toBeUndefined();
    expect(normalizePhone('')).toBeUndefined();
    expect(normalizePhone('n/a')).toBeUndefined();
    expect(normalizePhone(5125550100)).toBeUndefined();
    expect(normalizePhone(null)).toBeUndefined();
  });
});

describe('website rule', () => {
  it('reduces a URL to its host: lowercase, no scheme, www, user, port, path, query or trailing dot', () => {
    expect(websiteHost('https://www.JoesPlumbing.com/contact?utm=x#top')).toBe('joesplumbing.com');
    expect(websiteHost('joesplumbing.com')).toBe('joesplumbing.com');
    expect(websiteHost('http://user:pw@joesplumbing.com:8080/')).toBe('joesplumbing.com');
    expect(websiteHost('//www.joesplumbing.com.')).toBe('joesplumbing.com');
    expect(websiteHost('  WWW2.joesplumbing.com  ')).toBe('joesplumbing.com');
  });

  it('matches across scheme, www and path differences', () => {
    const index = indexOf({ website: 'https://www.joesplumbing.com/' });
    expect(index.matches({ website: 'http://joesplumbing.com/services/drains' })).toBe('website');
  });

  it('matches by registrable domain: a subdomain meets its domain, public suffixes are read right', () => {
    expect(
      indexOf({ website: 'https://austin.joesplumbing.com' }).matches({ website: 'joesplumbing.com' }),
    ).toBe('website');
    const uk = indexOf({ website: 'https://www.shop.example.co.uk/x' });
    expect(uk.matches({ website: 'http://example.co.uk' })).toBe('website');
    expect(uk.matches({ website: 'http://other.co.uk' })).toBeUndefined();
    expect(businessKeys({ website: 'https://shop.example.co.uk' }, registrableDomain)).toEqual([
      { rule: 'website', key: 'example.co.uk' },
    ]);
  });

  it("reads a CRM's domain column as a website", () => {
    expect(
      indexOf({ domain: 'joesplumbing.com' }).matches({ website: 'https://www.joesplumbing.com/' }),
    ).toBe('website');
  });

  it('reads an international name in its ASCII form', () => {
    expect(websiteHost('https://www.bäckerei.de')).toBe('xn--bckerei-5wa.de');
    expect(indexOf({ website: 'xn--bckerei-5wa.de' }).matches({ website: 'bäckerei.de' })).toBe('website');
  });

  it('gives no key for shared hosts or their subdomains: never a match on the host alone', () => {
    expect(isSharedHost('facebook.com')).toBe(true);
    expect(isSharedHost('m.facebook.com')).toBe(true);
    expect(isSharedHost('sites.google.com')).toBe(true);
    expect(isSharedHost('notfacebook.com')).toBe(false);
    const index = indexOf({ website: 'https://www.facebook.com/joesplumbing' });
    expect(index.matches({ website: 'https://facebook.com/otherplumber' })).toBeUndefined();
    expect(businessKeys({ website: 'https://www.facebook.com/joesplumbing' }, registrableDomain)).toEqual([]);
  });

  it("gives a key for a site builder's tenant host but not for its bare host", () => {
    expect(isSharedHost('wixsite.com')).toBe(true);
    expect(isSharedHost('joes.wixsite.com')).toBe(false);
    const index = indexOf({ website: 'https://joes.wixsite.com/plumbing' });
    expect(index.matches({ website: 'joes.wixsite.com' })).toBe('website');
    expect(index.matches({ website: 'https://ann.wixsite.com/plumbing' })).toBeUndefined();
    // The public-suffix list does not name every builder: its tenants still count as their own.
    const press = indexOf({ website: 'https://joes.wordpress.com' });
    expect(press.matches({ website: 'www.joes.wordpress.com/about' })).toBe('website');
    expect(press.matches({ website: 'https://ann.wordpress.com' })).toBeUndefined();
  });

  it('gives no key for text that is not a host', () => {
    expect(websiteHost('n/a')).toBeUndefined();
    expect(websiteHost('localhost')).toBeUndefined();
    expect(websiteHost('http://')).toBeUndefined();
    expect(websiteHost('')).toBeUndefined();
    expect(websiteHost(null)).toBeUndefined();
    expect(websiteHost('http://exa mple.com')).toBeUndefined();
  });
});

describe('name and address rule', () => {
  const saved = {
    name: "Joe's Plumbing & Heating, LLC",
    address: '123 North Main Street, Suite 4, Austin, TX',
  };

  it('ignores case, accents, apostrophes, punctuation, "&" vs "and" and legal suffixes', () => {
    expect(normalizeText('Café  Ñandú!')).toBe('cafe nandu');
    expect(
      indexOf(saved).matches({
        name: 'JOES PLUMBING AND HEATING',
        address: '123 N. Main St., Ste 4 Austin TX',
      }),
    ).toBe('name_address');
  });

  it('abbreviates street words only in the address, word by word', () => {
    const index = indexOf({ name: 'Street Food', address: '9 Avenue Road' });
    expect(index.matches({ name: 'street food', address: '9 Ave Rd' })).toBe('name_address');
    expect(index.matches({ name: 'st food', address: '9 Ave Rd' })).toBeUndefined();
  });

  it('never matches on the name alone, nor on the address alone', () => {
    const index = indexOf({ name: 'Starbucks', address: '1 Congress Ave, Austin' });
    expect(index.matches({ name: 'Starbucks', address: '2 Lamar Blvd, Austin' })).toBeUndefined();
    expect(index.matches({ name: 'Other Cafe', address: '1 Congress Ave, Austin' })).toBeUndefined();
    expect(businessKeys({ name: 'Starbucks' }, registrableDomain)).toEqual([]);
    expect(businessKeys({ name: 'Starbucks', address: ' ,, ' }, registrableDomain)).toEqual([]);
  });

  it('keeps a name that is only a legal suffix', () => {
    expect(businessKeys({ name: 'Inc', address: '1 A St' }, registrableDomain)).toEqual([
      { rule: 'name_address', key: 'inc|1 a st' },
    ]);
  });
});

describe('SuppressionIndex', () => {
  it('reports the first matching rule in the order id, phone, website, name_address', () => {
    const index = indexOf({
      id: 'p1',
      phone: '+15125550100',
      website: 'joes.com',
      name: 'Joes',
      address: '1 Main St',
    });
    expect(index.matches({ place_id: 'p1', phone: '+15125550100' })).toBe('id');
    expect(index.matches({ place_id: 'p2', phone: '5125550100', website: 'joes.com' })).toBe('phone');
    expect(index.matches({ place_id: 'p2', website: 'https://joes.com/x' })).toBe('website');
    expect(index.matches({ place_id: 'p2', name: 'joes', address: '1 main street' })).toBe('name_address');
  });

  it('does not match a business that shares nothing, nor values across rules', () => {
    const index = indexOf({ id: '15125550100', phone: '+1 512 555 0199' });
    expect(index.matches({ place_id: 'p9', phone: '+1 512 555 0100' })).toBeUndefined();
    expect(index.matches({ website: '15125550100' })).toBeUndefined();
  });

  it('counts items added and tolerates non-objects', () => {
    const index = indexOf({ id: 'a' }, null, 'text', { id: 'b' });
    expect(index.size).toBe(4);
    expect(index.matches(null)).toBeUndefined();
    expect(index.matches([])).toBeUndefined();
  });
});
