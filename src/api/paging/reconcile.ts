// The end of a run: what was written set against what the server said, as notices for the user, or
// a ProtocolError when the counts of an unchanged list do not add up.
import { ProtocolError } from '../errors.js';

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
