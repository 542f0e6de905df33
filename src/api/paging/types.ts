// The shapes paging speaks in. `Meta` is the API's pagination metadata, written once in schemas.ts.
import type { Meta } from '../schemas.js';

export interface PageResult<T> {
  items: T[];
  meta: Meta;
}
export type FetchPage<T> = (page: number, limit: number, signal: AbortSignal) => Promise<PageResult<T>>;

export interface PageProgress {
  pagesFetched: number;
  totalPages: number;
  itemsYielded: number;
  total: number;
}

export interface PaginateOptions {
  /** Page size, 1..100. */
  limit: number;
  /** Default 1. */
  startPage?: number;
  /** Pages in flight, default 4, 1..16. */
  concurrency?: number;
  /** Stop after n items yielded. */
  maxItems?: number;
  /** Only items whose timeField is newer than this; stop at the first that is not. */
  since?: Date;
  /** Default 'id'. */
  idField?: string;
  /** e.g. 'saved_at'; required when since is set, read for nothing else. */
  timeField?: string;
  /** Abort: stop fetching, reject with the signal's reason. */
  signal?: AbortSignal;
  onProgress?(p: PageProgress): void;
  /** What the run has to say once it ends: repeated ids dropped, the list changing meanwhile. */
  onNotice?(message: string): void;
}
