// What a batch has sent, kept in its state: every search is counted as sent and named as unanswered
// before it goes out (the state saved first), and stops being unanswered when an answer comes; an
// answer with results is kept in the state (saved) until its rows are written. So a stop at any
// moment (Ctrl-C, a reset after the request was read, a full disk under the output) leaves the
// searches that may have run named in FILE.state and the answers not yet written kept there: --resume
// does not send the first again on its own, and writes the second without sending them. State writes
// go out in the order they are asked for, so the last one on disk is the newest.

import { HttpError, NetworkError, RateLimitedError } from '../api/errors.js';
import { parseJsonLossless } from '../api/exact-json-parser.js';
import type { HeldFile } from '../checkpoint/checkpoint-file.js';
import { jsonText } from '../output/json-text.js';
import { type BatchState, saveState, type UnknownSearch } from './state.js';
import type { SearchRow } from './validate.js';

export function recordSends(state: BatchState, stateFile: HeldFile | undefined) {
  let last: Promise<void> = Promise.resolve();
  /** Saves the state as it is now (after every search). */
  const persist = () => {
    if (!stateFile) return Promise.resolve();
    const snapshot = structuredClone(state);
    // Each save is tried even after one failed (a full disk): the newest state is the one that counts.
    last = last.catch(() => {}).then(() => saveState(stateFile, snapshot));
    return last;
  };
  /** An answer came for it (a refusal, or results already kept). */
  const answered = (index: number) => {
    state.unknown = state.unknown.filter((search) => search.index !== index);
  };
  return {
    persist,
    /** Resolves once every save asked for is done (or rejects when the last failed). */
    saved: () => last,
    /** A search about to go out: counted as sent, named as unanswered, saved; throws (unsent) if it cannot be saved. */
    sending: async (index: number, row: SearchRow) => {
      state.sent += 1;
      state.unknown = [...state.unknown, unknownEntry(index, row)].sort((a, b) => a.index - b.index);
      try {
        await persist();
      } catch (error) {
        state.sent -= 1;
        answered(index);
        throw error;
      }
    },
    answered,
    /** Results came for it: kept in the state, saved before its rows are written (a throw stops the batch, the answer kept). */
    keep: async (index: number, results: readonly unknown[]) => {
      answered(index);
      if (!stateFile) return;
      state.answers = [...state.answers, { index, results: jsonText(results) }].sort(
        (a, b) => a.index - b.index,
      );
      await persist();
    },
    /** Its rows are written: the kept answer is dropped (saved with the next persist). */
    written: (index: number) => {
      state.answers = state.answers.filter((answer) => answer.index !== index);
    },
    // A status from the server (a 429, a 5xx, a 401) means it is known; a refused connection or a
    // failed DNS lookup means it never went out. A 429 (nothing processed) is not counted as sent.
    abandoned: (index: number, error: unknown) => {
      if (!(error instanceof HttpError) && !neverSent(error)) return;
      answered(index);
      if (error instanceof RateLimitedError || neverSent(error)) state.sent -= 1;
    },
  };
}

/** The rows a --resume passes over: sent by the stopped run, never answered (unless --resend-unknown). */
export function unansweredBefore(state: BatchState, resend: boolean): Set<number> {
  if (resend) return new Set();
  return new Set(state.unknown.filter((search) => search.index >= state.done).map((search) => search.index));
}

/** The answers a stopped run kept, by their place among the unique rows. */
export function keptAnswers(state: BatchState): Map<number, Array<Record<string, unknown>>> {
  return new Map(
    state.answers.map((answer) => [
      answer.index,
      parseJsonLossless(answer.results) as Array<Record<string, unknown>>,
    ]),
  );
}

function unknownEntry(index: number, row: SearchRow): UnknownSearch {
  return { index, line: row.line, query: row.query, location: row.location };
}

/** refused / DNS: the request provably never reached the server (api/errors.ts NetworkError kinds). */
function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && (error.kind === 'refused' || error.kind === 'dns');
}
