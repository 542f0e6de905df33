// The end of a run: what was written set against what the server said, as notices for the user, or
// a ProtocolError when the counts of an unchanged list do not add up.
import { ProtocolError } from '../errors.js';
import type { PageProgress, PageResult } from './index.js';

export interface Ledger {
  /** meta.total of the first page and of the last answer read. */
  startTotal: number;
  endTotal: number;
  written: number;
  /** Items dropped because their id had been written already. */
  repeats: number;
  /** Items seen in front of what was written, not written before: saved during the run. */
  savedSkipped: number;
  /** Items the head read found in front of the first page: saved during the run. */
  savedUnseen: number;
  /** Some answer showed a total other than the first page's. */
  changed: boolean;
  /** maxItems or since ended the run: the counts say nothing about the rest. */
  stoppedEarly: boolean;
  /** Items before the start page. */
  offset: number;
  /**
   * Items written after the pages read side by side could not be vouched for and the walk read the
   * list again from page 2: each is owed and written once, but may stand behind items after it.
   */
  rereadWritten: number;
}

export function newLedger(): Ledger {
  return {
    startTotal: 0,
    endTotal: 0,
    written: 0,
    repeats: 0,
    savedSkipped: 0,
    savedUnseen: 0,
    changed: false,
    stoppedEarly: false,
    offset: 0,
    rereadWritten: 0,
  };
}

export function reconcile(ledger: Ledger): string[] {
  const notices: string[] = [];
  const { repeats, written, startTotal, endTotal } = ledger;
  if (repeats > 0) {
    // A list that changed moves items across page boundaries, so an honest server sends some twice.
    const why = ledger.changed
      ? `the list changed between pages, so ${repeats === 1 ? 'it' : 'they'} arrived twice`
      : 'the server sent the same id more than once';
    notices.push(
      `Left out ${repeats} ${repeats === 1 ? 'item' : 'items'} whose id had already been written (${why})`,
    );
  }
  if (ledger.stoppedEarly) return notices;
  if (!ledger.changed) {
    const arrived = written + repeats;
    if (arrived < endTotal - ledger.offset) {
      throw new ProtocolError(
        `the server's counts do not add up: meta.total says ${endTotal}, but its pages held ${arrived} items; ${written} written`,
      );
    }
    return notices;
  }
  const saved = Math.max(ledger.savedSkipped, ledger.savedUnseen);
  const savedNote = saved > 0 ? `; ${saved} saved meanwhile ${saved === 1 ? 'is' : 'are'} not in it` : '';
  notices.push(
    `The list changed during the export (${startTotal} items at the start, ${endTotal} at the end): every item present throughout was written once${savedNote}`,
  );
  if (ledger.rereadWritten > 0) {
    const n = ledger.rereadWritten;
    notices.push(
      `It changed faster than the pages read side by side could vouch for, so the list was read again from page 2: ${n} ${n === 1 ? 'item' : 'items'} written then may stand out of the server's order (--concurrency 1 keeps it)`,
    );
  }
  return notices;
}

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
