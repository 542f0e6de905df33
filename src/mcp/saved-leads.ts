// The account's saved leads, fetched once per few minutes for the calls that need all of them:
// find_saved_leads filters them, search_businesses with exclude_saved drops what they already hold.
// Paged on our side (100 a page, one page at a time, at most MAX_SAVED_LEADS) within the session's
// request budget; a list cut short is returned with why, and not kept.
import type { LeadClient } from '../api/client.js';
import type { Lead } from '../api/schemas.js';
import { formatCount } from '../ui/ui.js';
import type { ReportProgress } from './progress.js';

/** 20 requests at most: enough for most accounts, and a bound on what one call may spend. */
export const MAX_SAVED_LEADS = 2_000;
const KEEP_MS = 5 * 60_000;
const PAGE = 100;

export interface SavedLeadsList {
  leads: Lead[];
  /** How many leads the account holds, as the server said. */
  total: number | undefined;
  /** Every saved lead was read. */
  complete: boolean;
  /** Why reading stopped before the end (a failure after some pages, or MAX_SAVED_LEADS). */
  stoppedBy?: unknown;
}

export class SavedLeads {
  readonly #client: LeadClient;
  readonly #now: () => number;
  #kept: { list: SavedLeadsList; at: number } | undefined;

  constructor(client: LeadClient, now: () => number = Date.now) {
    this.#client = client;
    this.#now = now;
  }

  /** Throws only when not one page could be read. */
  async load(signal: AbortSignal, progress: ReportProgress): Promise<SavedLeadsList> {
    if (this.#kept && this.#now() - this.#kept.at < KEEP_MS) return this.#kept.list;
    const leads: Lead[] = [];
    let total: number | undefined;
    let stoppedBy: unknown;
    try {
      const pages = this.#client.paginatePages('leads', {
        limit: PAGE,
        concurrency: 1,
        maxItems: MAX_SAVED_LEADS,
        signal,
        onProgress: (p) => {
          total = p.total;
          const goal = Math.min(p.total, MAX_SAVED_LEADS);
          progress(
            p.itemsYielded,
            goal,
            `read ${formatCount(p.itemsYielded)} of ${formatCount(goal)} saved leads`,
          );
        },
      });
      for await (const batch of pages) {
        leads.push(...batch);
        const goal = total === undefined ? undefined : Math.min(total, MAX_SAVED_LEADS);
        progress(leads.length, goal, `read ${formatCount(leads.length)} saved leads`);
      }
    } catch (error) {
      if (leads.length === 0 || signal.aborted) throw error;
      stoppedBy = error;
    }
    const complete = stoppedBy === undefined && (total === undefined || leads.length >= total);
    if (!complete && stoppedBy === undefined) {
      stoppedBy = `the account holds more than ${formatCount(MAX_SAVED_LEADS)} saved leads; only the newest ${formatCount(MAX_SAVED_LEADS)} were read`;
    }
    const list: SavedLeadsList = {
      leads,
      total,
      complete,
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
    };
    if (complete) this.#kept = { list, at: this.#now() };
    return list;
  }
}
