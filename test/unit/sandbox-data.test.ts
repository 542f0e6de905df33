// The deterministic generator: shapes, realism, determinism, and hostile values only on request.
import { describe, expect, it } from 'vitest';
import { resolveLocation } from '../../src/sandbox/catalog.js';
import {
  generateHistoryEntry,
  generateLead,
  generateSearchResults,
  HOSTILE_CATEGORIES,
  HOSTILE_NAMES,
  normalizeText,
} from '../../src/sandbox/data.js';
import type { Lead } from '../../src/sandbox/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PHONE = /^\+1 ?\d{3}-?555-?01\d{2}$/;
const SAVED = Date.parse('2024-04-01T12:00:00Z');
const leads = Array.from({ length: 2000 }, (_, serial) => generateLead(1, serial, SAVED));

describe('generateLead', () => {
  it('is a pure function of (seed, serial)', () => {
    expect(generateLead(1, 17, SAVED)).toEqual(leads[17]);
    expect(generateLead(2, 17, SAVED)).not.toEqual(leads[17]);
    expect(generateLead(1, 17, SAVED).saved_at).toBe('2024-04-01T12:00:00.000Z');
  });

  it('has the spec fields with realistic values', () => {
    for (const lead of leads) {
      expect(lead.id).toMatch(UUID);
      if (lead.phone) expect(lead.phone).toMatch(PHONE);
      if (lead.website) expect(lead.website).toMatch(/^https:\/\/[a-z0-9.]+\.(com|net|co|biz)$/);
      if (lead.rating !== null) {
        expect(lead.rating).toBeGreaterThanOrEqual(1);
        expect(lead.rating).toBeLessThanOrEqual(5);
        expect(Math.round(lead.rating * 10) / 10).toBe(lead.rating);
      }
      expect(Number.isInteger(lead.review_count) && lead.review_count >= 0).toBe(true);
      expect(lead.address).toMatch(/^\d+ .+, [A-Za-z ]+, [A-Z]{2} \d{5}$/);
    }
    expect(new Set(leads.map((lead) => lead.id)).size).toBe(leads.length);
  });

  it('spells phones both spaced and in plain E.164, and says "none" as null, "" or no key', () => {
    const share = (test: (lead: Lead) => boolean) => leads.filter(test).length / leads.length;
    expect(share((lead) => /^\+1 \d{3}-555-01\d\d$/.test(lead.phone ?? ''))).toBeGreaterThan(0.45);
    expect(share((lead) => /^\+1\d{3}55501\d\d$/.test(lead.phone ?? ''))).toBeGreaterThan(0.2);
    for (const field of ['phone', 'website'] as const) {
      expect(share((lead) => lead[field] === null)).toBeGreaterThan(0.04);
      expect(share((lead) => lead[field] === '')).toBeGreaterThan(0.03);
      expect(share((lead) => !(field in lead))).toBeGreaterThan(0.01);
      expect(share((lead) => !lead[field])).toBeLessThan(0.25);
    }
    // A left-out key leaves the others in the spec's order.
    const absent = leads.find((lead) => !('phone' in lead) && !('website' in lead));
    expect(Object.keys(absent ?? {})).toEqual([
      'id',
      'name',
      'address',
      'rating',
      'review_count',
      'category',
      'saved_at',
    ]);
  });

  it('gives ratings that agree with the review count', () => {
    for (const lead of leads) expect(lead.rating === null).toBe(lead.review_count === 0);
    expect(leads.filter((lead) => lead.review_count === 0).length).toBeGreaterThan(100);
    // One review is one whole star; a few may be anything from 1.0 to 5.0.
    for (const lead of leads.filter((lead) => lead.review_count === 1))
      expect(Number.isInteger(lead.rating)).toBe(true);
    const few = leads
      .filter((lead) => lead.review_count > 0 && lead.review_count <= 3)
      .map((lead) => lead.rating as number);
    expect(few).toContain(5);
    expect(Math.min(...few)).toBeLessThanOrEqual(2);
    // Many reviews: close to 3.5..4.8, never a perfect 5.0 or a 1.0.
    const many = leads.filter((lead) => lead.review_count >= 100).map((lead) => lead.rating as number);
    expect(many.filter((rating) => rating >= 3.5 && rating <= 4.8).length / many.length).toBeGreaterThan(
      0.85,
    );
    expect(Math.max(...many)).toBeLessThan(5);
    expect(Math.min(...many)).toBeGreaterThan(2);
  });

  it('has zips with a leading zero, only in the New England and New Jersey cities that have them', () => {
    const leadingZero = / 0\d{4}$/;
    expect(leads.filter((lead) => leadingZero.test(lead.address)).length).toBeGreaterThan(100);
    for (const lead of leads) {
      expect(leadingZero.test(lead.address)).toBe(/, (MA|RI|CT|NJ|VT) \d{5}$/.test(lead.address));
    }
  });

  it('keeps default data clean: no control characters or formula starts; accents and other scripts in names', () => {
    for (const lead of leads) {
      for (const value of [lead.name, lead.address]) {
        expect(value).toMatch(/^[\p{L}\p{N}][\p{L}\p{N}\p{M} .,'&-]*$/u);
      }
      expect(lead.category).toMatch(/^[A-Za-z][ -~]*$/);
      expect(lead.name).not.toContain(',');
    }
    const names = leads.map((lead) => lead.name);
    expect(names.some((name) => /[áéíóúñü]/i.test(name))).toBe(true);
    expect(names.some((name) => /\p{Script=Cyrillic}/u.test(name))).toBe(true);
    expect(names.some((name) => /\p{Script=Han}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(name))).toBe(
      true,
    );
    // Most names are plain ASCII, as most US listings are.
    expect(names.filter((name) => /^[ -~]+$/.test(name)).length / names.length).toBeGreaterThan(0.8);
  });

  it('shows one of each oddity at a known place among the ten newest leads, whatever the seed', () => {
    for (const seed of [1, 7]) {
      const first = Array.from({ length: 10 }, (_, rank) =>
        generateLead(seed, 299 - rank, SAVED, false, rank),
      );
      expect(first[0]?.phone).toMatch(/^\+1 \d{3}-555-01\d\d$/);
      expect(first[0]?.website).toMatch(/^https:/);
      expect(first[0]?.review_count).toBe(148);
      expect(first[1]?.phone).toMatch(/^\+1\d{10}$/);
      expect(first[2]).toMatchObject({ phone: null, website: null });
      expect(first[3]).toMatchObject({ phone: '', website: '' });
      expect(Object.keys(first[4] ?? {})).not.toContain('phone');
      expect(Object.keys(first[4] ?? {})).not.toContain('website');
      expect(first[5]).toMatchObject({ name: 'Café Müller', category: 'Coffee Shop' });
      expect(first[5]?.address).toMatch(/, Boston, MA 02134$/);
      expect(first[5]?.phone).toMatch(/^\+1617555\d{4}$/);
      expect(first[5]?.website).toMatch(/^https:\/\/(www\.)?cafemuller\./);
      expect(first[6]).toMatchObject({ name: '東京ラーメン', rating: null, review_count: 0 });
      expect(first[7]).toMatchObject({
        name: 'Пекарня Колос',
        category: 'Bakery',
        review_count: 1,
        website: null,
      });
      expect(first[8]).toMatchObject({ name: 'Ñandú Plomería', category: 'Plumber', review_count: 3 });
      expect(first[8]?.address).toMatch(/, Newark, NJ 07102$/);
      expect(first[9]?.review_count).toBe(1260);
    }
  });

  it('serves every hostile name and category within the first few dozen leads when asked', () => {
    const hostile = Array.from({ length: 48 }, (_, serial) => generateLead(1, serial, SAVED, true));
    for (const value of HOSTILE_NAMES) expect(hostile.map((lead) => lead.name)).toContain(value);
    for (const value of HOSTILE_CATEGORIES) expect(hostile.map((lead) => lead.category)).toContain(value);
    const joined = hostile.map((lead) => lead.name + lead.category).join('');
    for (const marker of [
      '=HYPERLINK(',
      '@SUM',
      '\u001b[31m',
      '\u001b]8;;',
      '\u009b',
      '\n',
      '"',
      ',',
      'é',
      '東京',
    ]) {
      expect(joined).toContain(marker);
    }
  });
});

describe('generateSearchResults', () => {
  const austin = { query: 'plumber', location: 'Austin', radius: 10 };

  it('fits the keyword and the place, and is deterministic', () => {
    const results = generateSearchResults(1, austin);
    expect(results.length).toBeGreaterThanOrEqual(10);
    expect(generateSearchResults(1, austin)).toEqual(results);
    expect(generateSearchResults(2, austin)).not.toEqual(results);
    for (const result of results) {
      expect(result.category).toBe('Plumber');
      expect(result.place_id).toMatch(/^ChIJ[\w-]{23}$/);
      if (result.phone) expect(result.phone).toMatch(/^\+1 ?512-?555-?01\d\d$/);
      expect(result.address).toMatch(/, Austin, TX 787\d\d$/);
      expect(Math.abs(result.lat - 30.2672)).toBeLessThan(10 / 69 + 1e-6);
    }
  });

  it('keeps the businesses of a coastal city on land: none towards the water beyond a mile', () => {
    const boston = { lat: 42.3601, lng: -71.0589 };
    const results = generateSearchResults(1, { query: 'pizza', location: 'Boston', radius: 50 });
    expect(results.length).toBeGreaterThan(20);
    for (const result of results) {
      const north = (result.lat - boston.lat) * 69;
      const east = (result.lng - boston.lng) * 69 * Math.cos((boston.lat * Math.PI) / 180);
      if (Math.hypot(north, east) <= 1.01) continue;
      // Boston Harbor and Massachusetts Bay lie east-north-east (bearing 80): nothing within 80 degrees of it.
      const bearing = ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360;
      expect(Math.abs(bearing - 80), `${result.lat},${result.lng}`).toBeGreaterThanOrEqual(80 - 0.01);
    }
  });

  it('grows with the radius while keeping the first results', () => {
    const wide = generateSearchResults(1, { ...austin, radius: 50 });
    const narrow = generateSearchResults(1, austin);
    expect(wide.length).toBe(narrow.length + 20);
    expect(wide.map((result) => result.place_id).slice(0, narrow.length)).toEqual(
      narrow.map((result) => result.place_id),
    );
  });

  it('names businesses after an unknown keyword, near a stable stand-in for an unknown place', () => {
    const results = generateSearchResults(1, {
      query: 'dog groomer',
      location: 'Smallville, KS',
      radius: 10,
    });
    expect(results.every((result) => result.category === 'Dog Groomer')).toBe(true);
    expect(results.some((result) => result.name.includes('Dog Groomer'))).toBe(true);
    expect(results[0]?.address).toMatch(/, Smallville, KS$/);
    const elsewhere = generateSearchResults(1, { query: 'dog groomer', location: 'Gotham', radius: 10 });
    expect(elsewhere[0]?.lat).not.toBe(results[0]?.lat);
  });
});

describe('resolveLocation', () => {
  it.each([
    ['Austin', 'Austin', 'TX'],
    ['  austin ,  tx ', 'Austin', 'TX'],
    ['Portland, OR', 'Portland', 'OR'],
    ['Texas', 'Austin', 'TX'],
    ['NY', 'New York', 'NY'],
    ['78704', 'Austin', 'TX'],
  ])('finds %j in the city table', (location, city, state) => {
    expect(resolveLocation(location)).toMatchObject({ city, state });
  });

  it('keeps the searched zip in addresses', () => {
    expect(resolveLocation('78704').addressTail).toBe('Austin, TX 78704');
  });
});

describe('history and normalization', () => {
  it('generates history entries deterministically', () => {
    const entry = generateHistoryEntry(1, 3, SAVED);
    expect(entry).toEqual(generateHistoryEntry(1, 3, SAVED));
    expect(entry.id).toMatch(UUID);
    expect(entry.results_count).toBeGreaterThan(0);
  });

  it('normalizes case, outer and inner spaces, and spaces around commas', () => {
    expect(normalizeText('  Austin ,   TX ')).toBe('austin,tx');
    expect(normalizeText('Hair\t\tSalon')).toBe('hair salon');
  });
});
