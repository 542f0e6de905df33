// Why paging asks for a full garbage collection now and then: V8 lets the old generation grow with
// the volume allocated rather than with what is live, so a 200,000-lead export peaked at 126 MB while
// holding about 45 MB. One full collection per 10,000 items handed out (about 3 ms each) keeps the
// peak flat (bench/RESULTS.md). It lives here, in the export path, not in a command; the V8 flag is
// set where the collection runs, so no launcher flag is needed.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const ROWS_BETWEEN_COLLECTIONS = 10_000;

let collect: (() => void) | undefined;
let looked = false;

/** Runs a full collection; does nothing where this Node refuses to expose one. */
export function collectGarbage(): void {
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
