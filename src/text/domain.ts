// The registrable domain of a business's website: the key CRMs dedupe companies on (HubSpot matches
// companies by domain). `https://www.shop.example.co.uk/x` -> `example.co.uk`. The public-suffix list
// comes from tldts (a hand-made "last two labels" rule is wrong for co.uk, com.au, ...). Private
// suffixes count (a site builder's tenant, joes.wixsite.com, is the business's own domain, as in
// business-match.ts). No domain for an IP address, localhost, or text that is not a host name.
import { getDomain } from 'tldts';

export function registrableDomain(website: unknown): string | undefined {
  if (typeof website !== 'string') return undefined;
  const text = website.trim();
  if (text === '') return undefined;
  return getDomain(text, { allowPrivateDomains: true }) ?? undefined;
}
