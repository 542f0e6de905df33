// The registrable domain of a website, the key CRMs dedupe companies on: `https://www.shop.example.co.uk/x`
// -> `example.co.uk`, through tldts's public-suffix list; a site builder's tenant (joes.wixsite.com,
// joes.wordpress.com) is its own domain. tldts costs ~20 ms to load: only a run that needs it imports this.
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
