// A sync's walk of one list: everything the first time (an --all export, whose first page gives the
// head to remember), only what is new afterwards (the --checkpoint walk of
// src/checkpoint/incremental.ts, from the head the database remembers). `result()` is the list's new
// state, to be written in the same transaction as the rows once the walk has ended.
import type { LeadClient } from '../api/client.js';
import {
  type FetchPage,
  fetchListPage,
  type ListResource,
  type PageProgress,
  paginatePages,
} from '../api/paging/index.js';
import { headOfFirstPage, incrementalPages } from '../checkpoint/incremental.js';
import type { ListState } from './sync-state.js';

type Item = Record<string, unknown>;

export interface ListWalkOptions {
  client: LeadClient;
  resource: ListResource;
  previous: ListState | undefined;
  signal: AbortSignal;
  noun: string;
  onProgress(p: PageProgress): void;
  onPage(page: number, fetched: number): void;
  onNotice(message: string): void;
}

export interface ListWalk {
  pages: AsyncIterable<Item[]>;
  result(): ListState;
}

/** Page size: the largest, the fewest requests. */
const LIMIT = 100;

export function walkList(options: ListWalkOptions): ListWalk {
  const { client, resource, previous, signal } = options;
  const fetchPage: FetchPage<Item> = (page, size, pageSignal) =>
    fetchListPage(client, resource, page, size, pageSignal);
  if (previous) {
    const walk = incrementalPages(fetchPage, {
      limit: LIMIT,
      head: previous.head,
      signal,
      noun: options.noun,
      onPage: options.onPage,
    });
    return { pages: walk.pages, result: walk.result };
  }
  // The next run's boundary is the newest end as the export's first page (read before any other)
  // saw it: items saved during this run stand in front of it and are fetched next time.
  const first = headOfFirstPage(fetchPage);
  const pages = paginatePages(first.fetchPage, {
    limit: LIMIT,
    concurrency: 4,
    idField: 'id',
    timeField: resource === 'leads' ? 'saved_at' : 'created_at',
    signal,
    onProgress: options.onProgress,
    onNotice: options.onNotice,
  });
  return { pages, result: first.head };
}
