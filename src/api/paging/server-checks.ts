// What the server did wrong, in the words a user reads (exit 7), and the one repair: paging by the
// size a server really uses when it clamps the limit without saying so.
import { ProtocolError } from '../errors.js';
import type { PageProgress, PageResult } from './index.js';
import type { Ledger } from './reconcile.js';

/**
 * The size the server really pages by: meta.limit when it admits to less than we asked, else the first
 * page's length when that is shorter than asked while the total says more items follow (a silent clamp).
 */
export function pageSizeOf<T>(first: PageResult<T>, requested: number, startPage: number): number {
  const reported = first.meta.limit;
  const size = Number.isInteger(reported) && reported > 0 && reported < requested ? reported : requested;
  const length = first.items.length;
  if (length > size) {
    throw new ProtocolError(
      `server answered page ${startPage} with ${length} items, more than the ${size} asked for`,
    );
  }
  const clamped = length > 0 && length < size && first.meta.total > startPage * length;
  return clamped ? length : size;
}

export function notACount(page: number, total: number, written: number) {
  return new ProtocolError(
    `server answered page ${page} with meta.total ${total}, which is not a count of items`,
    `${written} written before it`,
  );
}

export function oddPageError(page: number, got: number, size: number, total: number, progress: PageProgress) {
  const expected = Math.min(size, total - (page - 1) * size);
  return new ProtocolError(
    `server answered page ${page} with ${got} items where its meta.total (${total}) means ${expected} belong there; ${progress.itemsYielded} written`,
  );
}

export function repeatedPageError(page: number, written: number, total: number) {
  return new ProtocolError(
    `server answered page ${page} with items it had already sent on earlier pages (it does not page as asked); ${written} of ${total} written`,
  );
}

export function oddList() {
  return new ProtocolError('the list kept shrinking faster than it could be paged', 'try again later');
}

export function uncertifiable(ledger: Ledger, written: number) {
  return new ProtocolError(
    `the list changed during the export more than its answers can vouch for (${ledger.startTotal} items at the start, ${ledger.endTotal} at the end); ${written} written`,
    'run it again',
  );
}

/** Paging hands each item out once by its id: an item without one cannot be kept exact. */
export function missingIdError(idField: string, page: number): ProtocolError {
  return new ProtocolError(
    `server answered page ${page} with an item without an ${idField}; a full listing needs every item's ${idField} to write each one exactly once`,
    {
      hint: 'a single page (listLeads, listHistory) returns such items as sent',
      cliHint: 'a single page (without --all or --checkpoint) writes such items as sent',
    },
  );
}
