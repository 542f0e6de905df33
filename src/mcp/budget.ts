// The per-session request budget of `leadctl mcp --max-requests`: a model in a loop can spend a day's
// quota in a minute, so every HTTP attempt (retries included, since the server counts them too) is
// counted before it is sent, and once the budget is spent the attempt is refused and nothing is sent.
import { ExitCode, LeadError } from '../api/errors.js';
import { formatCount } from '../ui/count.js';

export class RequestBudget {
  readonly max: number;
  #sent = 0;

  constructor(max: number) {
    this.max = max;
  }

  get remaining(): number {
    return this.max - this.#sent;
  }

  /** For a tool's summary: how much is left, so that the model can plan its next calls. */
  describe(): string {
    return `Requests left in this session: ${formatCount(this.remaining)} of ${formatCount(this.max)}.`;
  }

  /** The client's beforeAttempt hook: synchronous, so tool calls running side by side never overspend. */
  readonly beforeAttempt = (): void => {
    if (this.#sent >= this.max) throw this.spentError();
    this.#sent += 1;
  };

  spentError(): LeadError {
    // Exit 5 in the CLI's table: like a rate limit, it means "out of quota".
    return new LeadError(
      `request budget spent: this session has sent its ${formatCount(this.max)} requests (--max-requests ${this.max})`,
      {
        exitCode: ExitCode.rateLimited,
        hint: 'start a new session (restart the MCP server), with a higher --max-requests if more are needed',
      },
    );
  }
}
