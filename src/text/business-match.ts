// Is this search result a business the user already has? Search results and saved leads share no key,
// so a business is recognised by any one of four keys, each normalized so that two spellings of the
// same business meet:
//
//   id            `place_id` or `id`, trimmed, compared exactly (opaque identifiers; a lead's id and a
//                 result's place_id are one key space, since an exporter may carry either).
//   phone         digits only, with the country code made explicit: a number written with `+` or `00`
//                 keeps its own code; a national number of 10 digits (or 11 starting with 1) is taken
//                 as North American (+1, DEFAULT_CALLING_CODE); any other national number is compared
//                 by its digits as written. Extensions (`ext`, `x`, `#`, `;`, `,` and after) and a
//                 trunk `(0)` are dropped; fewer than 7 digits is no key (placeholders, short codes).
//   website       the registrable domain of `website` (or of a `domain` column: a CRM's company
//                 domain), through the public-suffix list (text/domain.ts): shop.example.co.uk and
//                 www.example.co.uk are both example.co.uk. Scheme, user, port, path and case never
//                 count; an international name is compared in its ASCII form. A shared host (a social
//                 network, a map, a link page: facebook.com, google.com, yelp.com, linktr.ee, ... and
//                 their subdomains, or the bare host of a site builder such as wixsite.com) gives no key:
//                 thousands of businesses share it, so it is never a match on its own. A site builder's
//                 tenant (joes.wixsite.com) is the business's own domain and does give a key.
//   name_address  name and address together (never the name alone: chains share names): case, accents,
//                 apostrophes and punctuation removed, `&` read as "and", common street words
//                 abbreviated (street -> st, suite -> ste, north -> n, ...), and legal suffixes
//                 (LLC, Inc, Ltd, ...) dropped from the end of the name.
//
// API:
//   businessKeys(item, domainOf)  the keys of one item (an object as the API sends it), as `{ rule, key }`
//   await SuppressionIndex.create()  .add(item) remembers an item's keys; .matches(item) returns the
//                             first rule (in the order above) on which the item matches a remembered
//                             one, or undefined; .size counts items added. create() loads the
//                             public-suffix list (tldts, ~20 ms), which nothing else at start-up needs.
// Pure but for that import: no I/O, no globals; fields that are missing, null or not strings give no key.

export type MatchRule = 'id' | 'phone' | 'website' | 'name_address';

export interface BusinessKey {
  rule: MatchRule;
  key: string;
}

/** A list written as words separated by spaces. */
const words = (text: string): string[] => text.split(' ');

/** The calling code assumed for a 10-digit national number (the API's data is mostly North American). */
export const DEFAULT_CALLING_CODE = '1';

const FEWEST_PHONE_DIGITS = 7;

/** Hosts shared by many businesses: the host and every subdomain of it is never a match alone. */
const SHARED_HOSTS = words(
  'facebook.com fb.com fb.me instagram.com twitter.com x.com linkedin.com tiktok.com youtube.com ' +
    'pinterest.com google.com goo.gl g.page yelp.com nextdoor.com tripadvisor.com yellowpages.com ' +
    'bbb.org angi.com homeadvisor.com thumbtack.com houzz.com linktr.ee bit.ly tinyurl.com about.me ' +
    'wa.me',
);

/** Site builders whose bare host is shared but whose subdomains belong to one tenant each. */
export const SITE_BUILDER_HOSTS = words(
  'wixsite.com business.site square.site godaddysites.com weebly.com wordpress.com blogspot.com ' +
    'squarespace.com webflow.io carrd.co',
);

/** The registrable domain of a host (text/domain.ts). */
export type DomainOf = (host: string) => string | undefined;

export function businessKeys(item: unknown, domainOf: DomainOf): BusinessKey[] {
  if (item === null || typeof item !== 'object') return [];
  const fields = item as Record<string, unknown>;
  const keys: BusinessKey[] = [];
  for (const field of ['place_id', 'id']) {
    const id = identifier(fields[field]);
    if (id !== undefined) keys.push({ rule: 'id', key: id });
  }
  const phone = normalizePhone(fields.phone);
  if (phone !== undefined) keys.push({ rule: 'phone', key: phone });
  const website = websiteKey(fields.website, domainOf) ?? websiteKey(fields.domain, domainOf);
  if (website !== undefined) keys.push({ rule: 'website', key: website });
  const name = normalizeName(fields.name);
  const address = normalizeAddress(fields.address);
  if (name !== '' && address !== '') keys.push({ rule: 'name_address', key: `${name}|${address}` });
  return keys;
}

export class SuppressionIndex {
  readonly #keys = new Set<string>();
  readonly #domainOf: DomainOf;
  #count = 0;

  /** An empty index, with the public-suffix list its website rule needs. */
  static async create(): Promise<SuppressionIndex> {
    return new SuppressionIndex((await import('./domain.js')).registrableDomain);
  }

  constructor(domainOf: DomainOf) {
    this.#domainOf = domainOf;
  }

  add(item: unknown): void {
    for (const { rule, key } of businessKeys(item, this.#domainOf)) this.#keys.add(`${rule}:${key}`);
    this.#count += 1;
  }

  matches(item: unknown): MatchRule | undefined {
    for (const { rule, key } of businessKeys(item, this.#domainOf))
      if (this.#keys.has(`${rule}:${key}`)) return rule;
    return undefined;
  }

  get size(): number {
    return this.#count;
  }
}

function identifier(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The phone number as digits with its calling code, or undefined when it cannot identify anything. */
export function normalizePhone(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.trim().toLowerCase().replace(/^tel:/, '');
  // Extensions: everything from the first letter, `#`, `;` or `,` on (e.g. "ext. 12", "x12", ";ext=12").
  text = text.replace(/[a-z#;,].*$/s, '');
  text = text.replace(/\(0\)/g, '');
  const international = /^\s*(\+|00)/.test(text);
  let digits = text.replace(/\D/g, '');
  if (international && text.trimStart().startsWith('00')) digits = digits.slice(2);
  if (digits.length < FEWEST_PHONE_DIGITS) return undefined;
  if (international) return digits;
  if (digits.length === 10) return DEFAULT_CALLING_CODE + digits;
  if (digits.length === 11 && digits.startsWith(DEFAULT_CALLING_CODE)) return digits;
  return digits;
}

/** The website's host, normalized (see the top of the file), shared or not; undefined when there is none. */
export function websiteHost(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  let host = text.split(/[/?#\\]/, 1)[0] ?? '';
  host = host.slice(host.lastIndexOf('@') + 1);
  host = host.replace(/:\d*$/, '').replace(/\.+$/, '');
  try {
    // The WHATWG parser turns an international name into its ASCII (punycode) form, as browsers do.
    host = new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
  host = host.replace(/^www\d*\./, '');
  if (!host.includes('.') || host.startsWith('.')) return undefined;
  return host;
}

/** Whether many businesses share this (normalized) host, so that it identifies none of them alone. */
export function isSharedHost(host: string): boolean {
  if (SITE_BUILDER_HOSTS.includes(host)) return true;
  return SHARED_HOSTS.some((shared) => host === shared || host.endsWith(`.${shared}`));
}

function websiteKey(value: unknown, domainOf: DomainOf): string | undefined {
  const host = websiteHost(value);
  return host === undefined || isSharedHost(host) ? undefined : (domainOf(host) ?? host);
}

/** A street word and its abbreviation, as `word=abbreviation`. */
const STREET_WORDS: Record<string, string> = Object.fromEntries(
  words(
    'street=st avenue=ave av=ave road=rd boulevard=blvd drive=dr lane=ln court=ct place=pl ' +
      'parkway=pkwy highway=hwy suite=ste apartment=apt building=bldg floor=fl north=n south=s ' +
      'east=e west=w northeast=ne northwest=nw southeast=se southwest=sw',
  ).map((pair) => pair.split('=')),
);

const LEGAL_SUFFIXES = new Set(words('llc pllc llp inc incorporated ltd limited corp gmbh'));

/** Lowercase words without accents or punctuation, `&` as "and", apostrophes dropped ("joe's" = "joes"). */
export function normalizeText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function normalizeName(value: unknown): string {
  const words = normalizeText(value).split(' ').filter(Boolean);
  while (words.length > 1 && LEGAL_SUFFIXES.has(words.at(-1)!)) words.pop();
  return words.join(' ');
}

function normalizeAddress(value: unknown): string {
  return normalizeText(value)
    .split(' ')
    .filter(Boolean)
    .map((word) => STREET_WORDS[word] ?? word)
    .join(' ');
}
