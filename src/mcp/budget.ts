// The per-session request budget of `leadctl mcp --max-requests`: a model in a loop can spend a day's
// quota in a minute. The counting is the shared RequestBudget; this adds the words for an assistant.
import { ExitCode, LeadError } from '../api/errors.js';
import { RequestBudget as SharedBudget } from '../api/request-budget.js';
import { formatCount } from '../ui/ui.js';

export class RequestBudget extends SharedBudget {
  constructor(max: number) {
    // Exit 5 in the CLI's table: like a rate limit, it means "out of quota".
    super(
      max,
      () =>
        new LeadError(
          `this session's request budget is spent: it has sent the ${formatCount(max)} requests the user allowed it (--max-requests ${max}), so nothing more is sent`,
          {
            exitCode: ExitCode.rateLimited,
            hint: 'Tell the user; only they can allow more, by restarting the leadctl MCP server (with a higher --max-requests if needed).',
          },
        ),
    );
  }

  /** For a tool's summary: how much is left, so that the model can plan its next calls. */
  describe(): string {
    return `Requests left in this session: ${formatCount(this.remaining)} of ${formatCount(this.max)}.`;
  }
}
