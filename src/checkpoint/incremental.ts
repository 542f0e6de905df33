// A checkpoint run's walk: every item in front of the boundary, each once, then the new head; the rule and
// why it is exact: docs/checkpoint.md. Cost: the page holding the boundary and the pages before it.

import { ExitCode, LeadError, ProtocolError } from '../api/errors.js';
import { identityText } from '../api/exact-number.js';
import {
  type FetchPage,
  type ListResource,
  type PaginateOptions,
  paginatePages,
} from '../api/paging/index.js';
import { HEAD_IDS } from './checkpoint-file.js';

/** A list that changes under every pass this many times stops the run (nothing is committed). */
const MAX_PASSES = 4;

export interface IncrementalOptions {
  limit: number;
  /** The checkpoint's ids, newest first. */
  head: readonly string[];
  signal: AbortSignal;
  noun: string;
  onPage?(page: number, written: number): void;
  /** What is thrown when no remembered id is left (default: the checkpoint's error). */
  boundaryLost?(): Error;
}

export interface NewHead {
  head: string[];
  total: number;
}

/**
 * An --all export, and (`result()`) the head as its first page saw it: items saved during the run that the
 * export leaves out stand in front of that head, so the next run fetches them.
 */
export function exportPages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  resource: ListResource,
  options: Omit<PaginateOptions, 'idField' | 'timeField'>,
): { pages: AsyncIterable<T[]>; result(): NewHead } {
  let anchor: NewHead | undefined;
  const capturing: FetchPage<T> = (page, size, pageSignal) => {
    const answer = fetchPage(page, size, pageSignal);
    if (anchor === undefined && page === 1) {
      const slot: NewHead = { head: [], total: 0 };
      anchor = slot;
      void answer.then(
        ({ items, meta }) => {
          slot.head = items
            .map((item) => identityText(item.id))
            .filter((id) => id !== undefined)
            .slice(0, HEAD_IDS);
          slot.total = meta.total;
        },
        () => {},
      );
    }
    return answer;
  };
  const timeField = resource === 'leads' ? 'saved_at' : 'created_at';
  return {
    pages: paginatePages(capturing, { ...options, idField: 'id', timeField }),
    result: () => anchor ?? { head: [], total: 0 },
  };
}

/** The new items in batches; `result()`, once iteration ended without an error, is the head to save. */
export function incrementalPages<T extends Record<string, unknown>>(
  fetchPage: FetchPage<T>,
  options: IncrementalOptions,
): { pages: AsyncIterable<T[]>; result(): NewHead } {
  let outcome: NewHead | undefined;
  async function* walk(): AsyncGenerator<T[]> {
    const remembered = new Map(options.head.map((id, index) => [id, index]));
    const written = new Set<string>();
    for (let pass = 1; pass <= MAX_PASSES; pass++) {
      // Ids in list order as this pass reads them: the next checkpoint's head.
      const front: string[] = [];
      let firstTotal = 0;
      for (let page = 1; ; page++) {
        const { items, meta } = await fetchPage(page, options.limit, options.signal);
        if (page === 1) firstTotal = meta.total;
        // Saved or deleted items between two reads move the rest of the list: a page read after
        // such a change may skip items. Read again from the top; what was written is not repeated.
        else if (meta.total !== firstTotal) break;
        for (const item of items) {
          const id = identityText(item.id);
          if (id !== undefined && front.length < HEAD_IDS && !front.includes(id)) front.push(id);
        }
        const boundary = findBoundary(items, remembered);
        const batch: T[] = [];
        for (const item of boundary < 0 ? items : items.slice(0, boundary)) {
          const id = identityText(item.id);
          if (id !== undefined) {
            if (written.has(id)) continue;
            written.add(id);
          }
          batch.push(item);
        }
        const lastPage = items.length === 0 || page >= meta.totalPages;
        // Nothing but items already written, with the list unchanged: the server repeated a page
        // (or ignores `page`); going on would only read the same again.
        if (batch.length === 0 && boundary < 0 && !lastPage) {
          throw new ProtocolError(
            `server answered page ${page} with ${options.noun} it had already sent; nothing was committed`,
          );
        }
        if (batch.length > 0) yield batch;
        options.onPage?.(page, written.size);
        if (boundary >= 0 || lastPage) {
          // The end of the list without the boundary: every remembered item was deleted, and
          // position can no longer tell new from old. An empty head (an empty list then) is no loss.
          if (boundary < 0 && options.head.length > 0)
            throw options.boundaryLost?.() ?? boundaryLost(options.noun, options.head.length);
          outcome = { head: extendHead(front, options.head), total: firstTotal };
          return;
        }
      }
    }
    throw new LeadError(
      `the list changed while each of ${MAX_PASSES} passes read it; nothing was committed`,
      { exitCode: ExitCode.unavailable, hint: 'run the same command again' },
    );
  }
  return {
    pages: walk(),
    result: () => {
      if (!outcome) throw new Error('incrementalPages: result() before the walk ended');
      return outcome;
    },
  };
}

/**
 * The first remembered item still in its remembered order, or -1. An item moved to the front (followed by
 * one remembered before it) is in front of the boundary, new again, so it does not end the walk.
 */
export function findBoundary(
  items: readonly Record<string, unknown>[],
  remembered: Map<string, number>,
): number {
  const positions: { at: number; rank: number }[] = [];
  items.forEach((item, at) => {
    const id = identityText(item.id);
    const rank = id === undefined ? undefined : remembered.get(id);
    if (rank !== undefined) positions.push({ at, rank });
  });
  for (let index = 0; index < positions.length; index++) {
    const here = positions[index] as { at: number; rank: number };
    const next = positions[index + 1];
    if (next === undefined || next.rank > here.rank) return here.at;
  }
  return -1;
}

/** The ids read, then the old ones beyond them (maybe deleted since: harmless), up to HEAD_IDS. */
function extendHead(front: string[], old: readonly string[]): string[] {
  const head = [...front];
  const last = front.findLast((id) => old.includes(id));
  for (const id of old.slice(last === undefined ? 0 : old.indexOf(last) + 1)) {
    if (head.length >= HEAD_IDS) break;
    if (!head.includes(id)) head.push(id);
  }
  return head;
}

function boundaryLost(noun: string, remembered: number): LeadError {
  return new LeadError(
    `none of the ${remembered} newest ${noun} the checkpoint remembers is on the server any more, so new ${noun} cannot be told from old; nothing was committed`,
    {
      exitCode: ExitCode.protocol,
      hint: 'delete the checkpoint file to export everything again (with --append, to a new file)',
    },
  );
}
