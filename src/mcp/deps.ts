// What every tool runs on: one session's client, its caps and counts, and its own key mask and
// rejected-key hint (never the process's: a host may run several sessions).

import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { LeadClient } from '../api/client.js';
import { ExitCode, LeadError } from '../api/errors.js';
import { RequestBudget as SharedBudget } from '../api/request-budget.js';
import { formatCount } from '../ui/ui.js';
import type { UsageRecorder } from '../usage/recorder.js';
import type { Continuations } from './continuations.js';
import { CALL_DEADLINE_SEC } from './defaults.js';
import type { FailureContext } from './failure-text.js';
import type { RateLimitPause } from './rate-limit-pause.js';
import type { SavedLeads } from './saved-leads.js';
import type { SearchGate } from './search-tool.js';
import type { SpendConfirmation } from './spend-confirmation.js';
import type { KeyMasker } from './tool-result.js';

export interface ToolDeps {
  client: LeadClient;
  budget: RequestBudget;
  searches: SearchGate;
  pause: RateLimitPause;
  usage: UsageRecorder;
  continuations: Continuations;
  savedLeads: SavedLeads;
  confirmation: SpendConfirmation;
  mask: KeyMasker;
  failure: FailureContext;
}

/** One tool call: its cancellation (the call's, the session's or the deadline), its progress notifications. */
export interface ToolCall {
  signal: AbortSignal;
  progress: ReportProgress;
  /** Asks the user a yes-or-no question through the host (MCP elicitation), where the host can. */
  ask?: (message: string) => Promise<'accept' | 'decline' | 'cancel'>;
}

/** Why a call stopped at CALL_DEADLINE_SEC: the abort reason, so every wait and request ends with it. */
export class CallDeadlineError extends LeadError {
  constructor() {
    super(
      `this call was stopped after ${CALL_DEADLINE_SEC} s, before the host gives up on it: the API was too slow, not answering, or rate-limiting`,
      {
        exitCode: ExitCode.unavailable,
        hint: 'Nothing more is sent for it. Try once more later, or tell the user. A search sent before the stop may have spent a live search (it is counted).',
      },
    );
  }
}

// The per-session request budget of `leadctl mcp --max-requests`: a model in a loop can spend a day's
// quota in a minute. The counting is the shared RequestBudget; this adds the words for an assistant.
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

// Progress notifications for a call that pages: sent only when the client asked for them by giving
// the request a progress token (MCP's `_meta.progressToken`), so a client may reset its request
// timeout while a long list is fetched. Never fails the call: a notification that cannot be sent is
// dropped.
export type ReportProgress = (progress: number, total: number | undefined, message: string) => void;

interface ProgressExtra {
  _meta?: { progressToken?: string | number } | undefined;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

export function progressReporter(extra: ProgressExtra): ReportProgress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let last = -1;
  return (progress, total, message) => {
    // The spec wants progress to increase with every notification.
    if (progress <= last) return;
    last = progress;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => {});
  };
}
