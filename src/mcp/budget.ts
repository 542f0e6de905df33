// The per-session request budget of `leadctl mcp --max-requests`: a model in a loop can spend a day's
// quota in a minute. The counting is the shared RequestBudget; this adds the MCP wording.
import { ExitCode, LeadError } from '../api/errors.js';
import { RequestBudget as SharedBudget } from '../api/request-budget.js';
import { formatCount } from '../ui/count.js';

export class RequestBudget extends SharedBudget {
  constructor(max: number) {
    // Exit 5 in the CLI's table: like a rate limit, it means "out of quota".
    super(
      max,
      () =>
        new LeadError(
          `request budget spent: this session has sent its ${formatCount(max)} requests (--max-requests ${max})`,
          {
            exitCode: ExitCode.rateLimited,
            hint: 'start a new session (restart the MCP server), with a higher --max-requests if more are needed',
          },
        ),
    );
  }

  /** For a tool's summary: how much is left, so that the model can plan its next calls. */
  describe(): string {
    return `Requests left in this session: ${formatCount(this.remaining)} of ${formatCount(this.max)}.`;
  }
}
