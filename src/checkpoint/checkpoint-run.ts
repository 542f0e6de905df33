// `--checkpoint FILE`: hold FILE, read it, walk the list, then move FILE in two steps around the caller's
// commit (docs/checkpoint.md); a failed, interrupted or capped run leaves it as it was.
import type { LeadClient } from '../api/client.js';
import { type FetchPage, fetchListPage, type ListResource, type PageProgress } from '../api/paging/index.js';
import type { HistoryEntry, Lead } from '../api/schemas.js';
import {
  type Checkpoint,
  checkpointText,
  holdStateFile,
  loadCheckpoint,
  type PreparedWrite,
} from './checkpoint-file.js';
import { exportPages, incrementalPages } from './incremental.js';

type Item = Lead | HistoryEntry;

export interface CheckpointRunOptions {
  file: string;
  client: LeadClient;
  resource: ListResource;
  profile: string;
  limit: number;
  concurrency: number;
  signal: AbortSignal;
  noun: string;
  onProgress(p: PageProgress): void;
  onPage(page: number, written: number): void;
  onNotice(message: string): void;
}

export type CheckpointRun = Awaited<ReturnType<typeof startCheckpointRun>>;

export async function startCheckpointRun(options: CheckpointRunOptions) {
  const { client, resource, file, limit, signal } = options;
  const owner = { resource, profile: options.profile, baseUrl: client.apiRoot };
  // Held before it is read, so that a second run stops here, before any request.
  const held = await holdStateFile(file, 'checkpoint');
  let previous: Checkpoint | undefined;
  try {
    previous = await loadCheckpoint(file, owner);
  } catch (error) {
    held.release();
    throw error;
  }
  const fetchPage: FetchPage<Item> = (page, size, pageSignal) =>
    fetchListPage(client, resource, page, size, pageSignal);
  // The first run is an --all export; the next run starts from the head its first page saw.
  const walk = previous
    ? incrementalPages(fetchPage, {
        limit,
        head: previous.head,
        signal,
        noun: options.noun,
        onPage: options.onPage,
      })
    : exportPages(fetchPage, resource, {
        limit,
        concurrency: options.concurrency,
        signal,
        onProgress: options.onProgress,
        onNotice: options.onNotice,
      });
  let prepared: PreparedWrite | undefined;
  return {
    /** No checkpoint yet: this run exports everything. */
    first: previous === undefined,
    pages: walk.pages,
    /** Once every item is written, before the output is committed: the new FILE, written and synced aside. */
    prepare: async () => {
      const { head, total } = walk.result();
      const next: Checkpoint = {
        kind: 'leadctl-checkpoint',
        version: 1,
        ...owner,
        head,
        total,
        savedAt: new Date().toISOString(),
      };
      prepared = await held.prepare(checkpointText(next));
    },
    /** Once the output is committed: renames the prepared FILE into place. */
    commit: async () => {
      if (!prepared) throw new Error('checkpoint commit() before prepare()');
      await prepared.commit();
    },
    /** At the end, whatever happened: drops an uncommitted prepared FILE and frees FILE. Never throws. */
    release: async () => {
      await prepared?.discard();
      held.release();
    },
  };
}
