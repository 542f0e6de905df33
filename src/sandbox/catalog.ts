// The generator's tables: trades with their name patterns, and US cities a searched location resolves to.

import { hashText, type SeededRandom } from './random.js';

export interface Trade {
  /** Word starts that select this trade in a query ("landscap" matches "landscaping"). */
  keywords: readonly string[];
  category: string;
  /** {P} regional or generic prefix, {S} surname, {C} city, {K} the keyword itself. */
  patterns: readonly string[];
}

// keywords (comma-separated) | category | name patterns (" / "-separated)
const TRADE_TABLE = `
plumb,plomer|Plumber|{P} Plumbing Co. / {S} & Sons Plumbing / {C} Plumbing & Drain / {P} Rooter / {S} Plumbing Services
electric|Electrician|{P} Electric / {S} Electrical Services / {C} Electric Co. / {P} Wiring & Lighting
dentist,dental|Dentist|{P} Family Dentistry / {S} Dental Group / {C} Smiles / Dr. {S} DDS
lawyer,attorney,law firm|Law Firm|{S} & {S2} LLP / {S} Law Group / {C} Legal Partners / {P} Law Office
coffee,cafe,café,espresso|Coffee Shop|{P} Coffee Roasters / {S}'s Cafe / {C} Espresso Bar / The Daily Grind {C}
pizza|Pizza Restaurant|{S}'s Pizza / {P} Pizza Co. / {C} Slice House / Brick Oven {C}
restaurant,diner,food,ramen,taquer|Restaurant|{P} Kitchen / {S}'s Diner / {C} Grill & Bar / The {P} Table
roof|Roofing Contractor|{P} Roofing / {S} Roofing & Gutters / {C} Roof Pros / {P} Exteriors
hvac,heating,air condition,ac repair|HVAC Contractor|{P} Heating & Air / {S} Comfort Systems / {C} HVAC Co. / {P} Climate Control
mechanic,auto repair,car repair,auto|Auto Repair Shop|{P} Auto Repair / {S}'s Garage / {C} Auto Care / {P} Tire & Service
hair,salon,barber|Hair Salon|{P} Hair Studio / Salon {S} / {C} Cuts / The {P} Barbershop
gym,fitness,yoga|Gym|{P} Fitness / {C} Strength Club / {S} Training Studio / {P} Yoga & Fitness
bakery,bake,пекарн,panader|Bakery|{P} Bakery / {S}'s Bake Shop / {C} Bread Co. / Sweet {P} Bakehouse
landscap,lawn,garden|Landscaper|{P} Landscaping / {S} Lawn & Garden / {C} Yard Care / Green {P} Landscapes
clean,maid,janitor|Cleaning Service|{P} Cleaning Co. / {S} Maid Service / {C} Sparkle Cleaners / {P} Janitorial
real estate,realtor,realty|Real Estate Agency|{P} Realty / {S} Real Estate Group / {C} Home Finders / {P} Properties
accountant,accounting,cpa,tax|Accountant|{S} CPA Group / {P} Tax & Accounting / {C} Bookkeeping / {S} & {S2} Accountants
vet,animal,pet clinic|Veterinarian|{P} Animal Hospital / {S} Veterinary Clinic / {C} Pet Care / {P} Vet Center
florist,flower|Florist|{P} Florist / {S}'s Flowers / {C} Blooms / Petal & Stem {C}
chiropract|Chiropractor|{P} Chiropractic / {S} Spine & Wellness / {C} Chiropractic Center
insurance|Insurance Agency|{P} Insurance Agency / {S} Insurance Group / {C} Insurance Partners
photograph|Photographer|{P} Photography / {S} Photo Studio / {C} Portraits
mover,moving|Moving Company|{P} Movers / {S} Moving & Storage / {C} Moving Co.
pest,extermin|Pest Control|{P} Pest Control / {S} Exterminators / {C} Bug Busters`;

export const TRADES: readonly Trade[] = TRADE_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [keywords = '', category = '', patterns = ''] = line.split('|');
    return { keywords: keywords.split(','), category, patterns: patterns.split(' / ') };
  });

const GENERIC_PREFIXES: readonly string[] =
  'Summit,Main Street,Riverside,Oak Hill,Pioneer,Liberty,Northside,Cornerstone,Precision,Reliable,Premier,Hometown,Bright Star,All-Pro,Heritage,Keystone'.split(
    ',',
  );

/** state: prefixes, comma-separated. */
const REGIONAL_PREFIXES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  `TX:Lone Star,Bluebonnet,Hill Country
CA:Golden State,Pacific,Sunset
NY:Empire,Hudson,Big Apple
FL:Sunshine,Coastal,Palm
CO:Rocky Mountain,Mile High
WA:Evergreen,Cascade,Puget Sound
OR:Rose City,Cascade
AZ:Desert,Saguaro
IL:Windy City,Prairie
MA:Bay State,Beacon
RI:Ocean State,Narragansett
CT:Nutmeg,Constitution
NJ:Garden State,Jersey Shore
VT:Green Mountain,Champlain
GA:Peach State,Peachtree
TN:Music City,Volunteer
NV:Silver State,Desert
MN:North Star,Lakes
PA:Keystone,Liberty Bell
NC:Tar Heel,Queen City`
    .split('\n')
    .map((line) => {
      const [state = '', prefixes = ''] = line.split(':');
      return [state, prefixes.split(',')];
    }),
);

const SURNAMES: readonly string[] =
  "Johnson Garcia Miller Nguyen Patel Williams Brown Martinez Anderson Kim Thompson Lopez Walker Hernandez Carter Reyes Bennett Foster Müller Muñoz Peña O'Brien Hughes Ramirez".split(
    ' ',
  );

function titleCase(text: string): string {
  return text.replace(/\S+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1));
}

/** The trade a query asks for, or a made-up one named after the query itself. */
export function tradeForQuery(normalizedQuery: string): Trade {
  const padded = ` ${normalizedQuery}`;
  const known = TRADES.find((trade) => trade.keywords.some((keyword) => padded.includes(` ${keyword}`)));
  if (known) return known;
  const keyword = normalizedQuery.slice(0, 40).trim();
  return {
    keywords: [keyword],
    category: titleCase(keyword),
    patterns: ['{P} {K}', '{S} {K} Co.', '{C} {K}', '{K} by {S}'],
  };
}

// Names in the owners' language, as real listings have (accents, Cyrillic, CJK, Hangul).
// Category | name=website slug, " / "-separated.
const NATIVE_NAME_TABLE = `
Plumber|Ñandú Plomería=nanduplomeria / Plomería Peña=plomeriapena
Electrician|Eléctrica Hernández=electricahernandez / Électricité Dubois=electricitedubois
Dentist|Clínica Dental Sonrisa=clinicasonrisa / 서울 치과=seouldental
Law Firm|Bufete Jurídico Muñoz=bufetemunoz
Coffee Shop|Café Müller=cafemuller / Kaffeehaus Grüner Baum=gruenerbaum / Café Olé=cafeole
Pizza Restaurant|Pizzería Lúcia=pizzerialucia
Restaurant|東京ラーメン=tokyoramen / Phở Sài Gòn=phosaigon / Taquería El Güero=taqueriaelguero / 서울 식당=seoulsikdang
Hair Salon|Salón Belleza Rosé=salonrose / 미용실 하나=hanasalon
Gym|Спортзал Атлант=atlantgym
Bakery|Пекарня Колос=kolosbakery / Boulangerie Étoile=boulangerieetoile / 台湾烘焙坊=taiwanbakery
Landscaper|Jardinería Núñez=jardinerianunez
Cleaning Service|Limpieza Martínez=limpiezamartinez
Auto Repair Shop|Taller Mecánico Ramírez=tallerramirez
Accountant|Contabilidad Gómez=contabilidadgomez
Florist|花屋さくら=hanayasakura / Floristería Lirio=floristerialirio`;

const NATIVE_NAMES: ReadonlyMap<string, readonly { name: string; slug: string }[]> = new Map(
  NATIVE_NAME_TABLE.trim()
    .split('\n')
    .map((line) => {
      const [category = '', names = ''] = line.split('|');
      const entries = names.split(' / ').map((entry) => {
        const [name = '', slug = ''] = entry.split('=');
        return { name, slug };
      });
      return [category, entries];
    }),
);

/** The native name called `name`, wherever it sits in the table (the showcase leads pick theirs). */
export function nativeName(name: string) {
  for (const [category, names] of NATIVE_NAMES) {
    const native = names.find((entry) => entry.name === name);
    if (native) return { category, native };
  }
  throw new Error(`no native name ${name}`);
}

/** About one business in twelve of a trade that has native names goes by one. */
const NATIVE_NAME_RATE = 1 / 12;

export function makeBusiness(random: SeededRandom, trade: Trade, city: string, state: string) {
  const natives = NATIVE_NAMES.get(trade.category);
  if (natives && random.chance(NATIVE_NAME_RATE)) {
    const native = random.pick(natives);
    return { name: native.name, category: trade.category, website: websiteFor(random, native.slug) };
  }
  const regional = REGIONAL_PREFIXES[state] ?? [];
  const prefixes = regional.length > 0 && random.chance(0.5) ? regional : GENERIC_PREFIXES;
  const surname = random.pick(SURNAMES);
  const name = random.pick(trade.patterns).replace(/\{(P|S2|S|C|K)\}/g, (_match, slot: string) => {
    if (slot === 'P') return random.pick(prefixes);
    if (slot === 'S') return surname;
    if (slot === 'S2') return otherSurname(random, surname);
    if (slot === 'C') return city || random.pick(GENERIC_PREFIXES);
    return titleCase(trade.keywords[0] ?? trade.category);
  });
  return { name, category: trade.category, website: websiteFor(random, name) };
}

function otherSurname(random: SeededRandom, surname: string): string {
  const other = random.pick(SURNAMES);
  return other === surname ? SURNAMES[(SURNAMES.indexOf(other) + 1) % SURNAMES.length]! : other;
}

const NON_ASCII = /[^\x00-\x7f]/;
const TLDS = ['.com', '.com', '.com', '.net', '.co', '.biz'];

export function websiteFor(random: SeededRandom, name: string): string {
  // "Muñoz" -> "munoz": NFKD splits the accent off, and the filter drops it.
  const ascii = NON_ASCII.test(name) ? name.normalize('NFKD') : name;
  const slug = ascii.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'business';
  const host = random.chance(0.6) ? `www.${slug}` : slug;
  const tld = random.pick(TLDS);
  return `https://${host}${tld}`;
}

export interface Place {
  city: string;
  state: string;
  lat: number;
  lng: number;
  areaCode: string;
  zips: readonly string[];
  /** Compass bearing (degrees) of open water within a search's reach: no business is put there. */
  seaBearing?: number;
}

// city | state | lat | lng | area code | zips | bearing of the sea, bay or lake (coastal cities)
const CITY_TABLE = `
Austin|TX|30.2672|-97.7431|512|78701 78704 78745
Dallas|TX|32.7767|-96.797|214|75201 75204 75206
Houston|TX|29.7604|-95.3698|713|77002 77006 77008
San Antonio|TX|29.4241|-98.4936|210|78205 78209
New York|NY|40.7128|-74.006|212|10001 10002 10011|160
Los Angeles|CA|34.0522|-118.2437|213|90012 90026
San Francisco|CA|37.7749|-122.4194|415|94102 94110|270
San Diego|CA|32.7157|-117.1611|619|92101 92103|260
Chicago|IL|41.8781|-87.6298|312|60601 60614 60622|90
Phoenix|AZ|33.4484|-112.074|602|85003 85004 85016
Philadelphia|PA|39.9526|-75.1652|215|19103 19106
Seattle|WA|47.6062|-122.3321|206|98101 98103 98109|270
Portland|OR|45.5152|-122.6784|503|97201 97205 97209
Denver|CO|39.7392|-104.9903|303|80202 80205 80211
Boston|MA|42.3601|-71.0589|617|02108 02115 02116 02134|80
Cambridge|MA|42.3736|-71.1097|617|02138 02139 02141|90
Providence|RI|41.824|-71.4128|401|02903 02906 02908|170
Hartford|CT|41.7658|-72.6734|860|06103 06105 06106
Newark|NJ|40.7357|-74.1724|973|07102 07104 07107
Burlington|VT|44.4759|-73.2121|802|05401 05408|270
Miami|FL|25.7617|-80.1918|305|33128 33130 33137|90
Atlanta|GA|33.749|-84.388|404|30303 30308 30312
Nashville|TN|36.1627|-86.7816|615|37203 37206 37212
Minneapolis|MN|44.9778|-93.265|612|55401 55403 55408
Las Vegas|NV|36.1699|-115.1398|702|89101 89104 89109
Charlotte|NC|35.2271|-80.8431|704|28202 28203 28205`;

export const CITIES: readonly Place[] = CITY_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [city = '', state = '', lat = '', lng = '', areaCode = '', zips = '', sea] = line.split('|');
    const place = { city, state, lat: Number(lat), lng: Number(lng), areaCode, zips: zips.split(' ') };
    return sea === undefined ? place : { ...place, seaBearing: Number(sea) };
  });

const STATE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  'texas:TX,new york:NY,california:CA,illinois:IL,arizona:AZ,pennsylvania:PA,washington:WA,oregon:OR,colorado:CO,massachusetts:MA,rhode island:RI,connecticut:CT,new jersey:NJ,vermont:VT,florida:FL,georgia:GA,tennessee:TN,minnesota:MN,nevada:NV,north carolina:NC'
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
