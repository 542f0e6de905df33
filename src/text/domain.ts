// The registrable domain CRMs dedupe on (`www.shop.example.co.uk` -> `example.co.uk`; a site builder's tenant
// is its own), by tldts, which costs ~20 ms to load: only a run that needs it imports this.
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
