// The CLI's own memory rule for long exports (never the library's: a host's V8 state is its own).
// V8 lets the old generation grow with the volume allocated rather than with what is live, so a
// 200,000-lead export peaked at ~119 MB while holding ~45 MB; one full collection per 10,000 rows
// written (about 3 ms each) keeps the peak flat (docs/performance.md). The flag is set in this
// process only, where the collection runs, so no launcher flag is needed.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const ROWS_BETWEEN_COLLECTIONS = 10_000;

let collect: (() => void) | undefined;
let looked = false;

/** Call after writing rows: a full collection each time the total crosses another 10,000. */
export function relieveHeap(writtenBefore: number, writtenNow: number): void {
  if (
    Math.floor(writtenNow / ROWS_BETWEEN_COLLECTIONS) === Math.floor(writtenBefore / ROWS_BETWEEN_COLLECTIONS)
  )
    return;
  if (!looked) {
    looked = true;
    try {
      // Exposing gc to a new context is the documented way to reach it without a command-line flag.
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = undefined;
    }
  }
  collect?.();
}
