// The deterministic generator: every lead and history entry is a pure function of the seed and an
// index, so 200,000 leads cost no memory until they are served. Search results: search-results.ts.

import { makeBusiness, TRADES, type Trade } from './catalog.js';
import { hostileCategoryFor, hostileNameFor } from './hostile.js';
import { CITIES, type Place } from './places.js';
import { hashText, type SeededRandom, Stream, streamFor } from './random.js';
import type { HistoryEntry, Lead } from './types.js';

export interface SearchCriteria {
  query: string;
  location: string;
  radius: number;
}

/** Trimmed, lowercased, whitespace collapsed, no spaces around commas: "Austin ,  TX" -> "austin,tx". */
export function normalizeText(text: string): string {
  return text.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ').replace(/ ?, ?/g, ',');
}

const NULL_CONTACT_RATE = 0.1;
const STREETS: readonly string[] =
  'Main St,Oak St,Congress Ave,Elm St,Maple Ave,Cedar Ln,Park Blvd,Lake Dr,Hill Rd,Washington Ave,2nd St,5th St,Pine St,Sunset Blvd,River Rd,Broadway'.split(
    ',',
  );

function streetAddress(random: SeededRandom, tail: string): string {
  const suite = random.chance(0.2) ? ` Suite ${random.between(1, 9)}00` : '';
  return `${random.between(100, 9899)} ${random.pick(STREETS)}${suite}, ${tail}`;
}

/** Numbers in 555-0100..0199 are reserved for fiction, so no real business gets called. */
function phoneNumber(random: SeededRandom, areaCode: string): string | null {
  if (random.chance(NULL_CONTACT_RATE)) return null;
  return `+1 ${areaCode}-555-01${String(random.int(100)).padStart(2, '0')}`;
}

/** Skewed towards good ratings, like real listings: 1.0..5.0, one decimal. */
function rating(random: SeededRandom): number {
  return (10 + Math.floor(random.next() ** 0.4 * 41)) / 10;
}

function reviewCount(random: SeededRandom): number {
  return Math.floor(Math.exp(random.next() * 7.5)) - 1;
}

interface ContactDetails {
  name: string;
  address: string;
  phone: string | null;
  website: string | null;
  rating: number;
  review_count: number;
  category: string;
}

export function contactDetails(
  random: SeededRandom,
  trade: Trade,
  place: Place,
  addressTail: string,
  hostileIndex: number | undefined,
): ContactDetails {
  const business = makeBusiness(random, trade, place.city, place.state);
  const hostileName = hostileIndex === undefined ? undefined : hostileNameFor(hostileIndex);
  const hostileCategory = hostileIndex === undefined ? undefined : hostileCategoryFor(hostileIndex);
  return {
    name: hostileName ?? business.name,
    address: streetAddress(random, addressTail),
    phone: phoneNumber(random, place.areaCode),
    website: random.chance(NULL_CONTACT_RATE) ? null : business.website,
    rating: rating(random),
    review_count: reviewCount(random),
    category: hostileCategory ?? business.category,
  };
}

export function generateLead(seed: number, serial: number, savedAtMs: number, hostile = false): Lead {
  const random = streamFor(seed, Stream.lead, serial);
  const id = random.uuid();
  const city = random.pick(CITIES);
  const tail = `${city.city}, ${city.state} ${random.pick(city.zips)}`;
  const details = contactDetails(random, random.pick(TRADES), city, tail, hostile ? serial : undefined);
  // contactDetails lists its fields in the spec's order, so the spread keeps the lead's key order.
  return { id, ...details, saved_at: new Date(savedAtMs).toISOString() };
}

const SAMPLE_QUERIES: readonly string[] =
  'plumber,electrician,dentist,coffee shop,pizza,roofing contractor,hvac,auto repair,hair salon,gym,bakery,landscaping,cleaning service,real estate agent,accountant,veterinarian,florist,chiropractor,insurance agent,photographer,movers,pest control'.split(
    ',',
  );

/** How many results a search returns: a fixed share of the query and place, growing with the radius. */
export function resultCount(seed: number, criteria: SearchCriteria): number {
  const base = hashText(`${normalizeText(criteria.query)}\u0000${normalizeText(criteria.location)}`, seed);
  return 5 + (base % 11) + Math.floor(criteria.radius / 2);
}

export function generateHistoryEntry(
  seed: number,
  index: number,
  createdAtMs: number,
  hostile = false,
): HistoryEntry {
  const random = streamFor(seed, Stream.history, index);
  const id = random.uuid();
  const city = random.pick(CITIES);
  const location = random.chance(0.15) ? random.pick(city.zips) : `${city.city}, ${city.state}`;
  const hostileQuery = hostile && index % 3 === 0 ? hostileNameFor((index / 3) * 2) : undefined;
  const query = hostileQuery ?? random.pick(SAMPLE_QUERIES);
  const results_count = resultCount(seed, { query, location, radius: 10 });
  return { id, query, location, results_count, created_at: new Date(createdAtMs).toISOString() };
}
