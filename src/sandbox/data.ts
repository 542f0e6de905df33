// The deterministic generator: every lead, history entry and search result is a pure function of the
// seed and an index, so 200,000 leads cost no memory until they are served.

import {
  CITIES,
  makeBusiness,
  type Place,
  type ResolvedPlace,
  resolveLocation,
  TRADES,
  type Trade,
  tradeForQuery,
} from './catalog.js';
import { hashText, type SeededRandom, Stream, streamFor } from './random.js';
import type { HistoryEntry, Lead, SearchResult } from './types.js';

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

// ---- Search results: a fixed set of businesses per (seed, normalized query, normalized location), the
// first ones shared by every radius, placed uniformly within the radius around the searched place.

const PLACE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MILES_PER_DEGREE_LAT = 69;

function placeId(random: SeededRandom): string {
  let id = 'ChIJ';
  for (let i = 0; i < 23; i++) id += PLACE_ID_ALPHABET[random.int(PLACE_ID_ALPHABET.length)];
  return id;
}

/** A point uniformly spread within `radius` miles of the centre, rounded to 6 decimals (~10 cm). */
function nearby(random: SeededRandom, place: ResolvedPlace, radius: number): { lat: number; lng: number } {
  const distance = Math.sqrt(random.next()) * radius;
  const angle = random.next() * 2 * Math.PI;
  const lat = place.lat + (distance * Math.cos(angle)) / MILES_PER_DEGREE_LAT;
  const lngScale = MILES_PER_DEGREE_LAT * Math.cos((place.lat * Math.PI) / 180);
  const lng = place.lng + (distance * Math.sin(angle)) / lngScale;
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

export function generateSearchResults(
  seed: number,
  criteria: SearchCriteria,
  hostile = false,
): SearchResult[] {
  const query = normalizeText(criteria.query);
  const place = resolveLocation(criteria.location);
  const trade = tradeForQuery(query);
  const searchHash = hashText(`${query}\u0000${normalizeText(criteria.location)}`, seed);
  const count = resultCount(seed, criteria);
  const results: SearchResult[] = [];
  for (let i = 0; i < count; i++) {
    const random = streamFor(seed, Stream.result, searchHash, i);
    const place_id = placeId(random);
    const details = contactDetails(random, trade, place, place.addressTail, hostile ? i : undefined);
    const { lat, lng } = nearby(random, place, criteria.radius);
    results.push({ place_id, ...details, lat, lng });
  }
  return results;
}

// ---- Values that are hostile on purpose, served only with `hostileData: true`: spreadsheet formula
// starts, CSV metacharacters, newlines, non-ASCII, and terminal escape sequences (CSI, OSC 8, C1).
// Other engineers' tests assert that renderers neutralise every one of them.

export const HOSTILE_NAMES: readonly string[] = [
  '=HYPERLINK("http://evil.example/x","Click me")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '+1+1 Plumbing',
  '-2+3 Roofing',
  'Smith, Jones & "Partners"',
  'Line one\nLine two Plumbing',
  'Carriage\r\nReturn Electric',
  'Café Crème 東京 Bakery',
  '\u001b[31mRed Alert\u001b[0m Plumbing',
  '\u001b]8;;https://evil.example\u0007Trusted Bank\u001b]8;;\u0007',
  '\u009b31mC1 Control Cleaning',
  '\tTabbed Tax & Accounting',
];

export const HOSTILE_CATEGORIES: readonly string[] = [
  '=1+2',
  '@Category',
  'Plumber, Emergency',
  'Say "cheese" Photography',
  'Multi\nLine',
  'Électricien 東京',
  '\u001b[2J\u001b[HClear Screen',
  '\u009b0mC1 Category',
];

/** Every other lead or result is hostile, so a first page of 24 covers every name. */
export function hostileNameFor(index: number): string | undefined {
  return index % 2 === 0 ? HOSTILE_NAMES[(index / 2) % HOSTILE_NAMES.length] : undefined;
}

export function hostileCategoryFor(index: number): string | undefined {
  return index % 3 === 1 ? HOSTILE_CATEGORIES[((index - 1) / 3) % HOSTILE_CATEGORIES.length] : undefined;
}
