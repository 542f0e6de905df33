// Search results: a fixed set of businesses per (seed, normalized query, normalized location), the
// first ones shared by every radius, placed uniformly within the radius around the searched place.

import { tradeForQuery } from './catalog.js';
import { contactDetails, normalizeText, resultCount, type SearchCriteria } from './data.js';
import { type ResolvedPlace, resolveLocation } from './places.js';
import { hashText, type SeededRandom, Stream, streamFor } from './random.js';
import type { SearchResult } from './types.js';

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
