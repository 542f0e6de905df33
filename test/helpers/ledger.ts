// The usage ledger as tests see it: where a state home keeps it, and one written by hand.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Counts {
  requests: number;
  searches: number;
  rateLimited: number;
}

export const ledgerPath = (stateHome: string) => join(stateHome, 'leadctl', 'usage.json');

export const today = () => new Date().toISOString().slice(0, 10);
export const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The API root leadctl keys a base URL by: `http://127.0.0.1:1234/api/v1/`. */
export const apiRoot = (baseUrl: string) => `${baseUrl}/api/v1/`;

export function readLedger(stateHome: string) {
  return JSON.parse(readFileSync(ledgerPath(stateHome), 'utf8'));
}

export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

/** A ledger that says this profile and server already spent `today` today (and as much this month). */
export function writeLedger(stateHome: string, baseUrl: string, spent: Partial<Counts>, profile = 'default') {
  const counts = { requests: 0, searches: 0, rateLimited: 0, ...spent };
  mkdirSync(join(stateHome, 'leadctl'), { recursive: true, mode: 0o700 });
  const entry = {
    profile,
    baseUrl: apiRoot(baseUrl),
    days: { [today()]: counts },
    months: { [thisMonth()]: counts },
  };
  writeFileSync(ledgerPath(stateHome), JSON.stringify({ version: 1, entries: [entry] }), { mode: 0o600 });
}
