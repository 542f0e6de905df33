// The deterministic generator: every lead, history entry and search result is a pure function of the
// seed and an index, so 200,000 leads cost no memory until they are served.

import {
  CITIES,
  makeBusiness,
  nativeName,
  type Place,
  type ResolvedPlace,
  resolveLocation,
  TRADES,
  type Trade,
  tradeForQuery,
  websiteFor,
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

const STREETS: readonly string[] =
  'Main St,Oak St,Congress Ave,Elm St,Maple Ave,Cedar Ln,Park Blvd,Lake Dr,Hill Rd,Washington Ave,2nd St,5th St,Pine St,Sunset Blvd,River Rd,Broadway'.split(
    ',',
  );

function streetAddress(random: SeededRandom, tail: string): string {
  const suite = random.chance(0.2) ? ` Suite ${random.between(1, 9)}00` : '';
  return `${random.between(100, 9899)} ${random.pick(STREETS)}${suite}, ${tail}`;
}

// How a contact field arrives. Servers say "none" as null, "" or no key (the spec leaves nullability open),
// and spell a phone spaced or as plain E.164 (which a spreadsheet opening a CSV turns into a number).
type PhoneShape = 'spaced' | 'e164' | 'null' | 'empty' | 'absent';
type WebsiteShape = 'present' | 'null' | 'empty' | 'absent';

/** Cumulative shares: 55% spaced, 30% E.164, then 7% null, 5% empty, 3% absent. */
function drawPhoneShape(random: SeededRandom): PhoneShape {
  const draw = random.next();
  if (draw < 0.55) return 'spaced';
  if (draw < 0.85) return 'e164';
  return draw < 0.92 ? 'null' : draw < 0.97 ? 'empty' : 'absent';
}

/** 82% have a website; then 9% null, 6% empty, 3% absent. */
function drawWebsiteShape(random: SeededRandom): WebsiteShape {
  const draw = random.next();
  if (draw < 0.82) return 'present';
  return draw < 0.91 ? 'null' : draw < 0.97 ? 'empty' : 'absent';
}

const NONE = { null: null, empty: '', absent: undefined } as const;

/** Numbers in 555-0100..0199 are reserved for fiction, so no real business gets called. */
function phoneNumber(random: SeededRandom, areaCode: string, shape: PhoneShape): string | null | undefined {
  const line = `01${String(random.int(100)).padStart(2, '0')}`;
  if (shape === 'spaced') return `+1 ${areaCode}-555-${line}`;
  if (shape === 'e164') return `+1${areaCode}555${line}`;
  return NONE[shape];
}

/** Like real listings: many with a few reviews, a few with thousands; one in eleven with none. */
function reviewCount(random: SeededRandom): number {
  return Math.floor(Math.exp(random.next() * 7.5)) - 1;
}

// Agrees with the review count: none without reviews; with a few, the mean of that many whole stars (1.0 or
// 5.0 from one); with many, near the business's quality, mostly 3.5 to 4.8. One decimal, as listings show.
function ratingFor(random: SeededRandom, reviews: number): number | null {
  const quality = random.chance(0.06) ? 2.4 + random.next() * 1.1 : 3.5 + 1.3 * random.next() ** 0.8;
  if (reviews === 0) return null;
  if (reviews <= 12) {
    let stars = 0;
    for (let i = 0; i < reviews; i++) {
      const spread = (random.next() + random.next() - 1) * 2.4;
      stars += Math.min(5, Math.max(1, Math.round(quality + spread)));
    }
    return Math.round((stars / reviews) * 10) / 10;
  }
  const noise = ((random.next() - 0.5) * 1.5) / Math.sqrt(reviews);
  return Math.round(Math.min(5, Math.max(1, quality + noise)) * 10) / 10;
}

/** A lead or result's business fields, in the spec's order; a key whose shape is 'absent' is left out. */
type ContactDetails = Omit<Lead, 'id' | 'saved_at'>;

/** What a showcase lead fixes; everything else is drawn as for any lead. */
interface Shape {
  phone?: PhoneShape;
  website?: WebsiteShape;
  /** A name from the catalogue's native names; its trade comes with it. */
  native?: string;
  reviews?: number;
}

function contactDetails(
  random: SeededRandom,
  trade: Trade,
  place: Place,
  addressTail: string,
  hostileIndex: number | undefined,
  shape: Shape = {},
): ContactDetails {
  const native = shape.native === undefined ? undefined : nativeName(shape.native);
  const business = makeBusiness(random, trade, place.city, place.state);
  const hostileName = hostileIndex === undefined ? undefined : hostileNameFor(hostileIndex);
  const hostileCategory = hostileIndex === undefined ? undefined : hostileCategoryFor(hostileIndex);
  const address = streetAddress(random, addressTail);
  const phone = phoneNumber(random, place.areaCode, drawPhoneShape(random));
  const websiteShape = drawWebsiteShape(random);
  const review_count = reviewCount(random);
  const rating = ratingFor(random, shape.reviews ?? review_count);
  const details: ContactDetails = {
    name: hostileName ?? native?.native.name ?? business.name,
    address,
    phone: shape.phone === undefined ? phone : phoneNumber(random, place.areaCode, shape.phone),
    website: websiteOf(
      shape.website ?? websiteShape,
      native ? websiteFor(random, native.native.slug) : business.website,
    ),
    rating,
    review_count: shape.reviews ?? review_count,
    category: hostileCategory ?? native?.category ?? business.category,
  };
  if (details.phone === undefined) delete details.phone;
  if (details.website === undefined) delete details.website;
  return details;
}

function websiteOf(shape: WebsiteShape, website: string): string | null | undefined {
  return shape === 'present' ? website : NONE[shape];
}

// The ten newest leads of a fresh sandbox, whatever the seed: one of each oddity at a known place, so tests
// can pick a lead by its position (docs/sandbox.md, "Items at known places").
const SHOWCASE: readonly (Shape & { city?: string; zip?: string })[] = [
  { phone: 'spaced', website: 'present', reviews: 148 },
  { phone: 'e164', website: 'present' },
  { phone: 'null', website: 'null' },
  { phone: 'empty', website: 'empty' },
  { phone: 'absent', website: 'absent' },
  { native: 'Café Müller', city: 'Boston', zip: '02134', phone: 'e164', website: 'present', reviews: 87 },
  { native: '東京ラーメン', city: 'Seattle', phone: 'spaced', website: 'present', reviews: 0 },
  { native: 'Пекарня Колос', city: 'New York', phone: 'spaced', website: 'null', reviews: 1 },
  { native: 'Ñandú Plomería', city: 'Newark', zip: '07102', phone: 'e164', website: 'present', reviews: 3 },
  { phone: 'spaced', website: 'present', reviews: 1260 },
];

/** `rank`: the lead's place among the leads saved with it, newest first; ranks 0-9 take SHOWCASE's shapes. */
export function generateLead(
  seed: number,
  serial: number,
  savedAtMs: number,
  hostile = false,
  rank?: number,
): Lead {
  const random = streamFor(seed, Stream.lead, serial);
  const id = random.uuid();
  const drawnCity = random.pick(CITIES);
  const drawnZip = random.pick(drawnCity.zips);
  const trade = random.pick(TRADES);
  const showcase = rank === undefined ? undefined : SHOWCASE[rank];
  const city = (showcase?.city && CITIES.find((place) => place.city === showcase.city)) || drawnCity;
  const zip = showcase?.zip ?? (city === drawnCity ? drawnZip : city.zips[0]);
  const tail = `${city.city}, ${city.state} ${zip}`;
  const details = contactDetails(random, trade, city, tail, hostile ? serial : undefined, showcase);
  // contactDetails lists its fields in the spec's order, so the spread keeps the lead's key order.
  return { id, ...details, saved_at: new Date(savedAtMs).toISOString() };
}

const SAMPLE_QUERIES: readonly string[] =
  'plumber,electrician,dentist,coffee shop,pizza,roofing contractor,hvac,auto repair,hair salon,gym,bakery,landscaping,cleaning service,real estate agent,accountant,veterinarian,florist,chiropractor,insurance agent,photographer,movers,pest control,café,ramen,taquería,plomero,пекарня'.split(
    ',',
  );

/** How many results a search returns: a fixed share of the query and place, growing with the radius. */
function resultCount(seed: number, criteria: SearchCriteria): number {
  const base = hashText(`${normalizeText(criteria.query)}\u0000${normalizeText(criteria.location)}`, seed);
  return 5 + (base % 11) + Math.floor(criteria.radius / 2);
}

/** Fixed history entries (0 is the newest), as SHOWCASE fixes leads: a leading-zero zip, an accent. */
const HISTORY_SHOWCASE: readonly (Partial<Pick<HistoryEntry, 'query' | 'location'>> | undefined)[] = [
  undefined,
  { query: 'plumber', location: '02134' },
  { query: 'café', location: 'Cambridge, MA' },
];

export function generateHistoryEntry(
  seed: number,
  index: number,
  createdAtMs: number,
  hostile = false,
): HistoryEntry {
  const random = streamFor(seed, Stream.history, index);
  const id = random.uuid();
  const city = random.pick(CITIES);
  const drawnLocation = random.chance(0.15) ? random.pick(city.zips) : `${city.city}, ${city.state}`;
  const hostileQuery = hostile && index % 3 === 0 ? hostileNameFor((index / 3) * 2) : undefined;
  const drawnQuery = random.pick(SAMPLE_QUERIES);
  const showcase = HISTORY_SHOWCASE[index];
  const query = hostileQuery ?? showcase?.query ?? drawnQuery;
  const location = showcase?.location ?? drawnLocation;
  const results_count = resultCount(seed, { query, location, radius: 10 });
  return { id, query, location, results_count, created_at: new Date(createdAtMs).toISOString() };
}

// Search results: fixed per (seed, normalized query, location), the first ones shared by every radius.
const PLACE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MILES_PER_DEGREE_LAT = 69;

function placeId(random: SeededRandom): string {
  let id = 'ChIJ';
  for (let i = 0; i < 23; i++) id += PLACE_ID_ALPHABET[random.int(PLACE_ID_ALPHABET.length)];
  return id;
}

// Uniform within `radius` miles, rounded to 6 decimals (~10 cm); in a coastal city a point drawn towards the
// water is turned to the other side, so none lies offshore.
function nearby(random: SeededRandom, place: ResolvedPlace, radius: number): { lat: number; lng: number } {
  const distance = Math.sqrt(random.next()) * radius;
  let angle = random.next() * 2 * Math.PI;
  if (place.seaBearing !== undefined && distance > 1) {
    const offSea = Math.abs((((((angle * 180) / Math.PI - place.seaBearing) % 360) + 540) % 360) - 180);
    if (offSea < 80) angle += Math.PI;
  }
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

// Served only with `hostileData: true`: formula starts, CSV metacharacters, newlines, non-ASCII and terminal
// escapes (CSI, OSC 8, C1); tests assert that renderers neutralise every one.
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
function hostileNameFor(index: number): string | undefined {
  return index % 2 === 0 ? HOSTILE_NAMES[(index / 2) % HOSTILE_NAMES.length] : undefined;
}

function hostileCategoryFor(index: number): string | undefined {
  return index % 3 === 1 ? HOSTILE_CATEGORIES[((index - 1) / 3) % HOSTILE_CATEGORIES.length] : undefined;
}
