// Request plumbing for paginate.ts: every page request runs under an internal AbortController, so a
// failed sibling, the caller's signal, a discarded round or the consumer leaving early all cancel what is
// still in flight. Rejections of cancelled requests are swallowed; the error the caller sees is the first
// real failure (or the caller's abort reason), never a knock-on "aborted" from a sibling.

import { setMaxListeners } from 'node:events';
import type { FetchPage, PageResult } from './paginate.js';

/** Up to 16 pages in flight, each with our listener and fetchPage's own: not a leak. */
const LISTENERS_PER_SIGNAL = 64;

/** Ends the requests of a round whose pages turned out not to be needed. */
class RoundDiscarded extends Error {
  override readonly name = 'RoundDiscarded';
}

/** Ends everything still in flight when the iteration is over. */
class PaginationClosed extends Error {
  override readonly name = 'PaginationClosed';
}

export interface Round<T> {
  fetch(page: number, limit: number): Promise<PageResult<T>>;
  /** Cancels what is still in flight and unhooks the round from the fetcher. */
  discard(): void;
}

export class PageFetcher<T> {
  private readonly controller = new AbortController();
  private failure: { error: unknown } | undefined;
  private readonly onExternalAbort: () => void;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly external: AbortSignal | undefined,
  ) {
    setMaxListeners(LISTENERS_PER_SIGNAL, this.controller.signal);
    this.onExternalAbort = () => this.controller.abort(external?.reason);
    if (external?.aborted) this.onExternalAbort();
    else external?.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  /** A request outside any round (the first page, head probes). */
  fetch(page: number, limit: number): Promise<PageResult<T>> {
    return this.start(page, limit, this.controller.signal);
  }

  /** Requests that can be cancelled together; `discard()` must end every round (a no-op when done). */
  openRound(): Round<T> {
    const roundController = new AbortController();
    setMaxListeners(LISTENERS_PER_SIGNAL, roundController.signal);
    const parent = this.controller.signal;
    const follow = () => roundController.abort(parent.reason);
    if (parent.aborted) follow();
    else parent.addEventListener('abort', follow, { once: true });
    return {
      fetch: (page, limit) => this.start(page, limit, roundController.signal),
      discard: () => {
        parent.removeEventListener('abort', follow);
        roundController.abort(new RoundDiscarded('page no longer needed'));
      },
    };
  }

  /** Throws the caller's abort reason once the caller has aborted (checked after each yield). */
  throwIfAborted(): void {
    if (this.external?.aborted) throw this.external.reason;
  }

  /** The error to surface for something caught while paginating. */
  errorFor(caught: unknown): unknown {
    if (this.external?.aborted) return this.external.reason;
    return this.failure ? this.failure.error : caught;
  }

  close(): void {
    this.external?.removeEventListener('abort', this.onExternalAbort);
    if (!this.controller.signal.aborted) this.controller.abort(new PaginationClosed('pagination ended'));
  }

  private start(page: number, limit: number, signal: AbortSignal): Promise<PageResult<T>> {
    if (signal.aborted) return handled(Promise.reject(signal.reason));
    let request: Promise<PageResult<T>>;
    try {
      request = Promise.resolve(this.fetchPage(page, limit, signal));
    } catch (error) {
      request = Promise.reject(error);
    }
    const settled = new Promise<PageResult<T>>((resolve, reject) => {
      // Do not trust fetchPage to honour the signal: settle on abort regardless.
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      request.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          if (!signal.aborted) this.fail(error);
          reject(error);
        },
      );
    });
    return handled(settled);
  }

  /** The first real failure cancels every sibling still in flight. */
  private fail(error: unknown): void {
    if (this.failure || this.controller.signal.aborted) return;
    this.failure = { error };
    this.controller.abort(error);
  }
}

/** Marks a promise as handled so that an abandoned request never becomes an unhandled rejection. */
function handled<R>(promise: Promise<R>): Promise<R> {
  promise.catch(() => {});
  return promise;
}
