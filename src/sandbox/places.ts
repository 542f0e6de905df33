// Real US city centres (with a state, an area code and a few zips) and the resolution of a searched
// location to one of them; unknown places get a stable, hash-based spot so results still look local.

import { hashText } from './random.js';

export interface Place {
  city: string;
  state: string;
  lat: number;
  lng: number;
  areaCode: string;
  zips: readonly string[];
}

// city | state | lat | lng | area code | zips
const CITY_TABLE = `
Austin|TX|30.2672|-97.7431|512|78701 78704 78745
Dallas|TX|32.7767|-96.797|214|75201 75204 75206
Houston|TX|29.7604|-95.3698|713|77002 77006 77008
San Antonio|TX|29.4241|-98.4936|210|78205 78209
New York|NY|40.7128|-74.006|212|10001 10002 10011
Los Angeles|CA|34.0522|-118.2437|213|90012 90026
San Francisco|CA|37.7749|-122.4194|415|94102 94110
San Diego|CA|32.7157|-117.1611|619|92101 92103
Chicago|IL|41.8781|-87.6298|312|60601 60614 60622
Phoenix|AZ|33.4484|-112.074|602|85003 85004 85016
Philadelphia|PA|39.9526|-75.1652|215|19103 19106
Seattle|WA|47.6062|-122.3321|206|98101 98103 98109
Portland|OR|45.5152|-122.6784|503|97201 97205 97209
Denver|CO|39.7392|-104.9903|303|80202 80205 80211
Boston|MA|42.3601|-71.0589|617|02108 02115 02116
Miami|FL|25.7617|-80.1918|305|33128 33130 33137
Atlanta|GA|33.749|-84.388|404|30303 30308 30312
Nashville|TN|36.1627|-86.7816|615|37203 37206 37212
Minneapolis|MN|44.9778|-93.265|612|55401 55403 55408
Las Vegas|NV|36.1699|-115.1398|702|89101 89104 89109
Charlotte|NC|35.2271|-80.8431|704|28202 28203 28205`;

export const CITIES: readonly Place[] = CITY_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [city = '', state = '', lat = '', lng = '', areaCode = '', zips = ''] = line.split('|');
    return { city, state, lat: Number(lat), lng: Number(lng), areaCode, zips: zips.split(' ') };
  });

const STATE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  'texas:TX,new york:NY,california:CA,illinois:IL,arizona:AZ,pennsylvania:PA,washington:WA,oregon:OR,colorado:CO,massachusetts:MA,florida:FL,georgia:GA,tennessee:TN,minnesota:MN,nevada:NV,north carolina:NC'
    .split(',')
    .map((pair) => pair.split(':') as [string, string]),
);

/** A located place plus the zip to print and the label used in addresses. */
export interface ResolvedPlace extends Place {
  /** Zip to use in addresses, or undefined for unknown places (we do not invent zips for them). */
  zip: string | undefined;
  /** "Austin, TX 78701" style tail of an address. */
  addressTail: string;
}

/** The geographic centre of the contiguous US: where unknown places are scattered around. */
const FALLBACK_CENTRE = { lat: 39.8283, lng: -98.5795 };
const FALLBACK_AREA_CODES = ['316', '402', '417', '479', '515', '605', '701', '785', '816', '918'];

function titleCase(text: string): string {
  return text.replace(/\S+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1));
}

function withZip(place: Place, zip: string | undefined): ResolvedPlace {
  return { ...place, zip, addressTail: `${place.city}, ${place.state}${zip ? ` ${zip}` : ''}` };
}

/** Finds a searched location ("Austin", "austin, tx", "Texas", "TX", "78704") or makes a stable stand-in. */
export function resolveLocation(location: string): ResolvedPlace {
  const normalized = location.trim().toLowerCase().replace(/\s+/g, ' ');
  const zipMatch = /^\d{5}$/.exec(normalized);
  if (zipMatch) {
    const place = CITIES.find((city) => city.zips.includes(normalized));
    if (place) return withZip(place, normalized);
  }
  const [cityPart = '', statePart = ''] = normalized.split(',').map((part) => part.trim());
  const byCity = CITIES.filter((city) => city.city.toLowerCase() === cityPart);
  const stateCode = (STATE_NAMES[statePart] ?? statePart).toUpperCase();
  const cityMatch = byCity.find((city) => !statePart || city.state === stateCode) ?? byCity[0];
  if (cityMatch) return withZip(cityMatch, cityMatch.zips[hashText(normalized) % cityMatch.zips.length]);
  const wholeAsState = (STATE_NAMES[normalized] ?? normalized).toUpperCase();
  const stateMatch = CITIES.find((city) => city.state === wholeAsState);
  if (stateMatch) return withZip(stateMatch, stateMatch.zips[0]);
  return fallbackPlace(location.trim(), normalized);
}

function fallbackPlace(label: string, normalized: string): ResolvedPlace {
  const h = hashText(normalized, 0x51ace);
  const lat = FALLBACK_CENTRE.lat + ((h & 0xffff) / 0xffff - 0.5) * 10;
  const lng = FALLBACK_CENTRE.lng + ((h >>> 16) / 0xffff - 0.5) * 30;
  const areaCode = FALLBACK_AREA_CODES[h % FALLBACK_AREA_CODES.length]!;
  const isZip = /^\d{5}$/.test(normalized);
  const city = isZip ? '' : titleCase(label);
  const place: Place = { city, state: '', lat, lng, areaCode, zips: [] };
  return { ...place, zip: isZip ? normalized : undefined, addressTail: isZip ? normalized : city };
}
