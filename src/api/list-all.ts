// LeadClient.paginate() and paginatePages(): the CLI's --all paging over a client's list methods, for
// library users too.
import type { LeadClient } from './client.js';
import { type FetchPage, type PaginateOptions, paginatePages } from './paginate.js';
import type { HistoryEntry, Lead } from './schemas.js';
import { parseSince } from './since.js';

/** What `paginate()` takes: paging options without the parts that follow from the resource. */
export interface ListAllOptions extends Omit<PaginateOptions, 'limit' | 'since' | 'idField' | 'timeField'> {
  /** Page size, 1..100; default 100, the fewest requests. */
  limit?: number;
  since?: Date | string;
}

/** Every item of the list in batches (see paginatePages). */
export function listAllPages(
  client: Pick<LeadClient, 'listLeads' | 'listHistory'>,
  resource: 'leads' | 'history',
  options: ListAllOptions,
  nowMs: number,
): AsyncIterable<(Lead | HistoryEntry)[]> {
  const { since, limit = 100, ...rest } = options;
  const fetchPage: FetchPage<Lead | HistoryEntry> = async (page, size, signal) => {
    if (resource === 'leads') {
      const { leads, meta } = await client.listLeads({ page, limit: size }, { signal });
      return { items: leads, meta };
    }
    const { history, meta } = await client.listHistory({ page, limit: size }, { signal });
    return { items: history, meta };
  };
  return paginatePages(fetchPage, {
    ...rest,
    limit,
    idField: 'id',
    timeField: resource === 'leads' ? 'saved_at' : 'created_at',
    ...(since === undefined ? {} : { since: typeof since === 'string' ? parseSince(since, nowMs) : since }),
  });
}
