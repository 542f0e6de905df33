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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PHONE = /^\+1 \d{3}-555-01\d{2}$/;
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
      if (lead.phone !== null) expect(lead.phone).toMatch(PHONE);
      if (lead.website !== null) expect(lead.website).toMatch(/^https:\/\/[a-z0-9.]+\.(com|net|co|biz)$/);
      expect(lead.rating).toBeGreaterThanOrEqual(1);
      expect(lead.rating).toBeLessThanOrEqual(5);
      expect(Math.round(lead.rating * 10) / 10).toBe(lead.rating);
      expect(Number.isInteger(lead.review_count) && lead.review_count >= 0).toBe(true);
      expect(lead.address).toMatch(/^\d+ .+, [A-Za-z ]+, [A-Z]{2} \d{5}$/);
    }
    expect(new Set(leads.map((lead) => lead.id)).size).toBe(leads.length);
  });

  it('leaves about one in ten phones and websites null', () => {
    const noPhone = leads.filter((lead) => lead.phone === null).length / leads.length;
    const noSite = leads.filter((lead) => lead.website === null).length / leads.length;
    expect(noPhone).toBeGreaterThan(0.06);
    expect(noPhone).toBeLessThan(0.14);
    expect(noSite).toBeGreaterThan(0.06);
    expect(noSite).toBeLessThan(0.14);
  });

  it('keeps default data clean: no control characters, no formula starts, ASCII only', () => {
    for (const lead of leads) {
      for (const value of [lead.name, lead.category, lead.address]) {
        expect(value).toMatch(/^[A-Za-z0-9][ -~]*$/);
        expect(value).not.toMatch(/["\n\r\t]/);
      }
      expect(lead.name).not.toContain(',');
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
      if (result.phone !== null) expect(result.phone).toMatch(/^\+1 512-555-01\d\d$/);
      expect(result.address).toMatch(/, Austin, TX 787\d\d$/);
      expect(Math.abs(result.lat - 30.2672)).toBeLessThan(10 / 69 + 1e-6);
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
