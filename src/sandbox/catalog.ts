// Business names, categories and websites that fit a searched keyword: "plumber" in Austin can give
// "Lone Star Plumbing Co.". Unknown keywords still produce plausible names built from the keyword.

import type { SeededRandom } from './random.js';

export interface Trade {
  /** Word starts that select this trade in a query ("landscap" matches "landscaping"). */
  keywords: readonly string[];
  category: string;
  /** {P} regional or generic prefix, {S} surname, {C} city, {K} the keyword itself. */
  patterns: readonly string[];
}

// keywords (comma-separated) | category | name patterns (" / "-separated)
const TRADE_TABLE = `
plumb|Plumber|{P} Plumbing Co. / {S} & Sons Plumbing / {C} Plumbing & Drain / {P} Rooter / {S} Plumbing Services
electric|Electrician|{P} Electric / {S} Electrical Services / {C} Electric Co. / {P} Wiring & Lighting
dentist,dental|Dentist|{P} Family Dentistry / {S} Dental Group / {C} Smiles / Dr. {S} DDS
lawyer,attorney,law firm|Law Firm|{S} & {S2} LLP / {S} Law Group / {C} Legal Partners / {P} Law Office
coffee,cafe,café,espresso|Coffee Shop|{P} Coffee Roasters / {S}'s Cafe / {C} Espresso Bar / The Daily Grind {C}
pizza|Pizza Restaurant|{S}'s Pizza / {P} Pizza Co. / {C} Slice House / Brick Oven {C}
restaurant,diner,food|Restaurant|{P} Kitchen / {S}'s Diner / {C} Grill & Bar / The {P} Table
roof|Roofing Contractor|{P} Roofing / {S} Roofing & Gutters / {C} Roof Pros / {P} Exteriors
hvac,heating,air condition,ac repair|HVAC Contractor|{P} Heating & Air / {S} Comfort Systems / {C} HVAC Co. / {P} Climate Control
mechanic,auto repair,car repair,auto|Auto Repair Shop|{P} Auto Repair / {S}'s Garage / {C} Auto Care / {P} Tire & Service
hair,salon,barber|Hair Salon|{P} Hair Studio / Salon {S} / {C} Cuts / The {P} Barbershop
gym,fitness,yoga|Gym|{P} Fitness / {C} Strength Club / {S} Training Studio / {P} Yoga & Fitness
bakery,bake|Bakery|{P} Bakery / {S}'s Bake Shop / {C} Bread Co. / Sweet {P} Bakehouse
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
  'Johnson Garcia Miller Nguyen Patel Williams Brown Martinez Anderson Kim Thompson Lopez Walker Hernandez Carter Reyes Bennett Foster Hughes Ramirez'.split(
    ' ',
  );

export function titleCase(text: string): string {
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

export interface BusinessIdentity {
  name: string;
  category: string;
  website: string;
}

export function makeBusiness(
  random: SeededRandom,
  trade: Trade,
  city: string,
  state: string,
): BusinessIdentity {
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

function websiteFor(random: SeededRandom, name: string): string {
  const ascii = NON_ASCII.test(name) ? name.normalize('NFKD') : name;
  const slug = ascii.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'business';
  const host = random.chance(0.6) ? `www.${slug}` : slug;
  const tld = random.pick(TLDS);
  return `https://${host}${tld}`;
}
