// The pipelined read of a list that holds still: up to `width` page requests in flight, refilled as
// each answer arrives, never more than `hold` pages ahead of the one handed out, handed out strictly in
// page order. It only schedules; walk.ts decides what an answer means.

import type { PageResult } from './index.js';
import type { RequestGroup } from './requests.js';

export class PageWindow<T> {
  readonly #sent = new Map<number, Promise<PageResult<T>>>();
  #nextOut: number;
  #nextToSend: number;
  #inFlight = 0;
  #closed = false;

  constructor(
    private readonly requests: RequestGroup<T>,
    readonly plan: { first: number; last: number; limit: number; width: number; hold: number },
  ) {
    this.#nextOut = plan.first;
    this.#nextToSend = plan.first;
    this.#topUp();
  }

  /** The answer for `page`; pages must be taken in order, from `first` to `last`. */
  take(page: number): Promise<PageResult<T>> {
    if (page !== this.#nextOut) throw new Error(`paging: page ${page} taken out of order`);
    this.#nextOut += 1;
    this.#topUp();
    const answer = this.#sent.get(page);
    this.#sent.delete(page);
    if (!answer) throw new Error(`paging: page ${page} was never requested`);
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
      this.#sent.set(this.#nextToSend, answer);
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
