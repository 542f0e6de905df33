// The `usage` tool: what this machine has sent for the session's profile and server today and this
// month (the usage ledger, plus this session's requests not yet written), beside the plan's limits
// and what is left of the session's budget. Reads a local file: it sends no request.
import { formatCount } from '../ui/count.js';
import type { Counts } from '../usage/ledger-schema.js';
import { usageReport } from '../usage/report.js';
import { successResult, type ToolDeps, type ToolResult } from './tool-result.js';

export function runUsageTool(deps: ToolDeps): ToolResult {
  const { report, totals } = usageReport(deps.usage, Date.now());
  const plan = report.plan
    ? `Plan: ${report.plan} (its limits are in structured content).`
    : 'Plan: not set (leadctl config set plan free|pro|agency).';
  const summary =
    `Sent from this machine only (other machines and the web app spend the same allowance): ` +
    `today (${totals.day} UTC) ${counts(totals.today)}; this month ${counts(totals.thisMonth)}. ` +
    `${plan} ${deps.budget.describe()}`;
  const session = { requestsSent: deps.budget.sent, maxRequests: deps.budget.max };
  return successResult(summary, { ...report, session }, deps.mask);
}

function counts(c: Counts): string {
  return `${formatCount(c.requests)} requests, ${formatCount(c.searches)} searches, ${formatCount(c.rateLimited)} rate-limited`;
}
