// What a batch has sent, kept in its state: every search is counted as sent and named as unanswered
// before it goes out (the state saved first), and stops being unanswered when an answer comes. So a
// stop at any moment (Ctrl-C, a reset after the request was read) leaves the searches that may have
// run named in FILE.state, and --resume does not send them again on its own. State writes go out in
// the order they are asked for, so the last one on disk is the newest.

import { HttpError, NetworkError, RateLimitedError } from '../api/errors.js';
import type { HeldFile } from '../checkpoint/checkpoint-file.js';
import { type BatchState, saveState, type UnknownSearch } from './state.js';
import type { SearchRow } from './validate.js';

export interface SentRecord {
  /** Saves the state as it is now (after every search). */
  persist(): Promise<void>;
  /** Resolves once every save asked for is on disk (or rejects with the first failure). */
  saved(): Promise<void>;
  /** A search about to go out: counted as sent, named as unanswered, saved; throws (unsent) if it cannot be saved. */
  sending(index: number, row: SearchRow): Promise<void>;
  /** An answer came for it (results or a refusal). */
  answered(index: number): void;
  /** It ended in the error that stops the batch, or was cut short by the stop. */
  abandoned(index: number, error: unknown): void;
}

export function recordSends(state: BatchState, stateFile: HeldFile | undefined): SentRecord {
  let saving: Promise<void> = Promise.resolve();
  const persist = () => {
    if (!stateFile) return Promise.resolve();
    const snapshot = structuredClone(state);
    saving = saving.then(() => saveState(stateFile, snapshot));
    return saving;
  };
  const answered = (index: number) => {
    state.unknown = state.unknown.filter((search) => search.index !== index);
  };
  return {
    persist,
    saved: () => saving,
    sending: async (index, row) => {
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
    // A status from the server (a 429, a 5xx, a 401) means it is known; a refused connection or a
    // failed DNS lookup means it never went out. A 429 (nothing processed) is not counted as sent.
    abandoned: (index, error) => {
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

function unknownEntry(index: number, row: SearchRow): UnknownSearch {
  return { index, line: row.line, query: row.query, location: row.location };
}

/** refused / DNS: the request provably never reached the server (api/errors.ts NetworkError kinds). */
function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && (error.kind === 'refused' || error.kind === 'dns');
}
