// The `usage` tool: what this machine has sent for the session's profile and server today and this
// month (the usage ledger, plus this session's requests not yet written), beside the plan's limits,
// the session's budget and the search caps. Reads a local file: it sends no request.
import { formatCount } from '../ui/ui.js';
import type { Counts } from '../usage/ledger.js';
import { usageReport } from '../usage/report.js';
import type { ToolDeps } from './deps.js';
import { successResult, type ToolResult } from './tool-result.js';

export function runUsageTool(deps: ToolDeps): ToolResult {
  const { report, totals } = usageReport(deps.usage, Date.now());
  const plan = report.plan
    ? `Plan: ${report.plan} (its limits are in the data).`
    : 'Plan: not set (the user can set it with: leadctl config set plan free|pro|agency).';
  const paused = deps.pause.until;
  const summary =
    `Sent from this machine only (other machines and the web app spend the same allowance): ` +
    `today (${totals.day} UTC) ${counts(totals.today)}; this month ${counts(totals.thisMonth)}. ` +
    `${plan} ${deps.searches.describe()} ${deps.budget.describe()}` +
    (paused ? ` Rate-limited by the API until ${paused.toISOString()}: no request is sent before then.` : '');
  const session = {
    requestsSent: deps.budget.sent,
    maxRequests: deps.budget.max,
    searchesSent: deps.searches.sessionSearches,
    maxSearches: deps.searches.caps.perSession,
    searchesToday: totals.today.searches,
    maxSearchesPerDay: deps.searches.caps.perDay,
    ...(paused ? { rateLimitedUntil: paused.toISOString() } : {}),
  };
  return successResult(summary, { ...report, session }, deps.mask);
}

function counts(c: Counts): string {
  return `${formatCount(c.requests)} requests, ${formatCount(c.searches)} searches, ${formatCount(c.rateLimited)} rate-limited`;
}
