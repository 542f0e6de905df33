// Which ledger entry a run counts in: its profile and its API root, so that `https://host` and
// `https://host/api/v1/` are one server. The in-process sandbox of --sandbox listens on a new port
// each run: it is counted as one server, `sandbox`.
import { resolveApiRoot } from '../api/url.js';
import type { LedgerKey } from './ledger-math.js';

export const SANDBOX_KEY = 'sandbox';

export function ledgerKey(profile: string, baseUrl: string, source: string | undefined): LedgerKey {
  return { profile, baseUrl: source === 'sandbox' ? SANDBOX_KEY : resolveApiRoot(baseUrl).href };
}
