// After a 429 whose reset is further away than the server may wait (--max-wait), every tool that
// sends requests answers at once with the reset time, sending nothing, until that time has passed:
// a model that keeps calling would otherwise spend a request (and the server's patience) per call.
import { RateLimitedError } from '../api/errors.js';
import { describeDuration } from '../api/retry-after.js';

export class RateLimitPause {
  readonly #now: () => number;
  #until: Date | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Looks at a failure: a rate limit with a reset time in the future pauses the session until then. */
  note(error: unknown): void {
    if (!(error instanceof RateLimitedError) || !error.resetAt) return;
    if (error.resetAt.getTime() <= this.#now()) return;
    if (!this.#until || error.resetAt > this.#until) this.#until = error.resetAt;
  }

  /** When the pause ends, if one is running now. */
  get until(): Date | undefined {
    if (this.#until && this.#until.getTime() <= this.#now()) this.#until = undefined;
    return this.#until;
  }

  /** The refusal's lines while paused, or undefined. */
  refusal(capsText: string): string[] | undefined {
    const until = this.until;
    if (!until) return undefined;
    return [
      `leadctl: the API's rate limit is reached until ${until.toISOString()} (${describeDuration(until.getTime() - this.#now())}); no request was sent.`,
      `Tools that send requests answer this way until then; the usage tool still works. ${capsText} Tell the user when the limit resets.`,
    ];
  }
}
