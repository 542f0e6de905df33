// Why an export asks for a full garbage collection now and then: V8 lets the old generation grow with
// the volume allocated rather than with what is live, so a 200,000-lead export peaked at 126 MB while
// holding about 45 MB. One full collection per 10,000 rows (about 3 ms each) keeps the peak flat:
// 94 MB at 20,000 leads, 98 MB at 200,000, with no measurable change in time (bench/RESULTS.md).
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
