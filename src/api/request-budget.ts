// A cap on the HTTP attempts one client may send (`--max-requests`): every attempt, retries included
// since the server counts them too, is counted before it is sent, and once the cap is reached the
// next attempt is refused by the client's beforeAttempt hook, so nothing more is sent. Shared by
// `leadctl mcp` (a model in a loop) and the list exports (`leads --all`, `--checkpoint`).
import type { LeadError } from './errors.js';

export class RequestBudget {
  #sent = 0;

  /** `refusal` builds the error that stops the run, in the words of the command that set the cap. */
  constructor(
    readonly max: number,
    private readonly refusal: (max: number) => LeadError,
  ) {}

  get sent(): number {
    return this.#sent;
  }

  get remaining(): number {
    return this.max - this.#sent;
  }

  /** The client's beforeAttempt hook: synchronous, so requests running side by side never overspend. */
  readonly beforeAttempt = (): void => {
    if (this.#sent >= this.max) throw this.refusal(this.max);
    this.#sent += 1;
  };
}
