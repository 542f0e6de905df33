// The registrable domain of a business's website: the key CRMs dedupe companies on (HubSpot matches
// companies by domain). `https://www.shop.example.co.uk/x` -> `example.co.uk`. The public-suffix list
// comes from tldts (a hand-made "last two labels" rule is wrong for co.uk, com.au, ...). A site
// builder's tenant is the business's own domain (joes.wixsite.com, and joes.wordpress.com, which the
// list does not name), as in business-match.ts. No domain for an IP address, localhost, or text that
// is not a host name. tldts costs ~20 ms to load: only a run that needs a domain imports this module.
import { parse } from 'tldts';
import { SITE_BUILDER_HOSTS } from './business-match.js';

export function registrableDomain(website: unknown): string | undefined {
  if (typeof website !== 'string' || website.trim() === '') return undefined;
  const { domain, subdomain } = parse(website.trim(), { allowPrivateDomains: true });
  if (!domain || !SITE_BUILDER_HOSTS.includes(domain)) return domain ?? undefined;
  const tenant = subdomain
    ?.split('.')
    .filter((label) => label !== 'www')
    .pop();
  return tenant ? `${tenant}.${domain}` : domain;
}
