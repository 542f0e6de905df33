// Page requests of one run, all under one AbortController: a failed request, the caller's signal, a
// discarded window or the consumer leaving early cancel what is still in flight. Rejections of
// cancelled requests are swallowed; the error the caller sees is the first real failure (or the
// caller's abort reason), never a knock-on "aborted" from a sibling.
import { setMaxListeners } from 'node:events';
import { abortErrorFor, listenForAbort } from '../errors.js';
import type { FetchPage, PageResult } from './index.js';

/** Up to 16 pages in flight, each with our listener and fetchPage's own: not a leak. */
const LISTENERS_PER_SIGNAL = 64;

class RequestsEnded extends Error {
  override readonly name = 'RequestsEnded';
}

export interface RequestGroup<T> {
  fetch(page: number, limit: number): Promise<PageResult<T>>;
  /** Cancels what the group still has in flight. */
  discard(): void;
}

export class Requests<T> {
  readonly #controller = new AbortController();
  #failure: { error: unknown } | undefined;
  readonly #onExternalAbort = () => this.#controller.abort(this.external?.reason);

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly external: AbortSignal | undefined,
  ) {
    setMaxListeners(LISTENERS_PER_SIGNAL, this.#controller.signal);
    if (external?.aborted) this.#onExternalAbort();
    else external?.addEventListener('abort', this.#onExternalAbort, { once: true });
  }

  fetch(page: number, limit: number): Promise<PageResult<T>> {
    return this.#start(page, limit, this.#controller.signal);
  }

  /** Requests that can be cancelled together (the pipelined window). */
  group(): RequestGroup<T> {
    const controller = new AbortController();
    setMaxListeners(LISTENERS_PER_SIGNAL, controller.signal);
    const parent = this.#controller.signal;
    const follow = () => controller.abort(parent.reason);
    if (parent.aborted) follow();
    else parent.addEventListener('abort', follow, { once: true });
    return {
      fetch: (page, limit) => this.#start(page, limit, controller.signal),
      discard: () => {
        parent.removeEventListener('abort', follow);
        controller.abort(new RequestsEnded('page no longer needed'));
      },
    };
  }

  /** Throws the caller's abort reason once the caller has aborted (checked after each hand-out). */
  throwIfAborted(): void {
    if (this.external?.aborted) throw abortErrorFor(this.external.reason);
  }

  /** The error to surface for something caught during the run. */
  errorFor(caught: unknown): unknown {
    if (this.external?.aborted) return abortErrorFor(this.external.reason);
    return this.#failure ? this.#failure.error : caught;
  }

  close(): void {
    this.external?.removeEventListener('abort', this.#onExternalAbort);
    if (!this.#controller.signal.aborted) this.#controller.abort(new RequestsEnded('paging ended'));
  }

  #start(page: number, limit: number, signal: AbortSignal): Promise<PageResult<T>> {
    if (signal.aborted) return handled(Promise.reject(signal.reason));
    let request: Promise<PageResult<T>>;
    try {
      request = Promise.resolve(this.fetchPage(page, limit, signal));
    } catch (error) {
      request = Promise.reject(error);
    }
    const settled = new Promise<PageResult<T>>((resolve, reject) => {
      // Do not trust fetchPage to honour the signal: settle on abort regardless.
      const stopListening = listenForAbort(signal, reject);
      request.then(
        (result) => {
          stopListening();
          resolve(result);
        },
        (error: unknown) => {
          stopListening();
          if (!signal.aborted) this.#fail(error);
          reject(error);
        },
      );
    });
    return handled(settled);
  }

  /** The first real failure cancels every sibling still in flight. */
  #fail(error: unknown): void {
    if (this.#failure || this.#controller.signal.aborted) return;
    this.#failure = { error };
    this.#controller.abort(error);
  }
}

/** Marks a promise as handled so that an abandoned request never becomes an unhandled rejection. */
function handled<R>(promise: Promise<R>): Promise<R> {
  promise.catch(() => {});
  return promise;
}

// The pipelined read of a list that holds still: up to `width` page requests in flight, refilled as
// each answer arrives, never more than `hold` pages ahead of the one handed out, handed out strictly in
// page order. It only schedules; walk.ts decides what an answer means.
export class PageWindow<T> {
  /**
   * The answers sent for and not yet taken, page p at p % hold. Not a Map: a Map that keeps adding and
   * deleting is rebuilt every few pages, and each table it leaves behind still points at the answers it
   * held, so the garbage collector copied those pages again and again (docs/performance.md, "The
   * export near the floor").
   */
  readonly #sent: (Promise<PageResult<T>> | undefined)[];
  #nextOut: number;
  #nextToSend: number;
  #inFlight = 0;
  #closed = false;

  constructor(
    private readonly requests: RequestGroup<T>,
    readonly plan: { first: number; last: number; limit: number; width: number; hold: number },
  ) {
    this.#sent = new Array(plan.hold);
    this.#nextOut = plan.first;
    this.#nextToSend = plan.first;
    this.#topUp();
  }

  /** The answer for `page`; pages must be taken in order, from `first` to `last`. */
  take(page: number): Promise<PageResult<T>> {
    if (page !== this.#nextOut) throw new Error(`paging: page ${page} taken out of order`);
    // Out of its slot before the top-up: the page `hold` further on goes into the same one.
    const slot = page % this.plan.hold;
    const answer = this.#sent[slot];
    this.#sent[slot] = undefined;
    if (!answer) throw new Error(`paging: page ${page} was never requested`);
    this.#nextOut += 1;
    this.#topUp();
    return answer;
  }

  /** Cancels everything still in flight; the window sends nothing more. */
  discard(): void {
    this.#closed = true;
    this.requests.discard();
  }

  #topUp(): void {
    const { last, limit, width, hold } = this.plan;
    while (
      !this.#closed &&
      this.#inFlight < width &&
      this.#nextToSend <= last &&
      this.#nextToSend - this.#nextOut < hold
    ) {
      const answer = this.requests.fetch(this.#nextToSend, limit);
      this.#sent[this.#nextToSend % hold] = answer;
      this.#nextToSend += 1;
      this.#inFlight += 1;
      const settle = () => {
        this.#inFlight -= 1;
        this.#topUp();
      };
      answer.then(settle, settle);
    }
  }
}
