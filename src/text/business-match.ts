// Is this result a business the user already has? Any one of four normalized keys (id, phone, website,
// name_address) matches: docs/sync.md, "--exclude FILE". Pure but for tldts (SuppressionIndex.create()).

export type MatchRule = 'id' | 'phone' | 'website' | 'name_address';

export interface BusinessKey {
  rule: MatchRule;
  key: string;
}

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
