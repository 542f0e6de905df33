// Warnings before spending (issue 16, point 4): once a run knows how many requests or searches it
// will make, and the plan and the ledger say that crosses what is left today (or this month's live
// searches), one line on stderr says so before the run goes on. Without a known plan, nothing.
import type { PageProgress } from '../api/paging/index.js';
import type { Ui } from '../ui/ui.js';
import { formatCount } from '../ui/ui.js';
import type { UsageRecorder } from './recorder.js';
import {
  planLabel,
  type StrictestLimit,
  strictestDailyLimit,
  strictestMonthlySearches,
  usageTotals,
} from './report.js';

interface Spender {
  usage: UsageRecorder;
  ui: Ui;
}

export interface PagingPlan {
  startPage: number;
  limit: number;
  maxItems?: number | undefined;
  /** With --since the run stops at the first older item: how many pages that is, nobody knows. */
  since?: Date | undefined;
}

/** For the pager's onProgress: after the first page, warns once if the pages still to fetch cross the limit. */
export function quotaCheckForPages(spender: Spender, paging: PagingPlan): (progress: PageProgress) => void {
  let checked = paging.since !== undefined;
  return (progress) => {
    if (checked || progress.pagesFetched === 0) return;
    checked = true;
    let pages = Math.max(0, progress.totalPages - paging.startPage + 1);
    if (paging.maxItems !== undefined) pages = Math.min(pages, Math.ceil(paging.maxItems / paging.limit));
    warnIfOverQuota(spender, 'this export', Math.max(0, pages - progress.pagesFetched), 0);
  };
}

/** Before a batch's first search: each search is a request, and may be a live search. */
export function quotaCheckForSearches(spender: Spender, searches: number): void {
  warnIfOverQuota(spender, 'this batch', searches, searches);
}

function warnIfOverQuota(spender: Spender, what: string, requests: number, searches: number): void {
  const { usage, ui } = spender;
  if (!usage.plan || ui.quiet || requests === 0) return;
  const totals = usageTotals(usage.file, usage.key, usage.run, Date.now());
  if (totals.problem) usage.reportProblem(totals.problem);
  const plan = planLabel(usage.plan);
  const clauses: string[] = [];
  const daily = strictestDailyLimit(usage.plan);
  const requestsLeft = Math.max(0, daily.limit - totals.today.requests);
  if (requests > requestsLeft) {
    clauses.push(
      `${what} needs about ${formatCount(requests)} more requests but only ${formatCount(requestsLeft)} are left today ` +
        `(${plan} plan: ${limitText(daily, 'requests a day')}; this machine sent ${formatCount(totals.today.requests)} today)`,
    );
  }
  const monthly = searches > 0 ? strictestMonthlySearches(usage.plan) : undefined;
  const searchesLeft = monthly
    ? Math.max(0, monthly.limit - totals.thisMonth.searches)
    : Number.POSITIVE_INFINITY;
  if (monthly && searches > searchesLeft) {
    clauses.push(
      `${clauses.length > 0 ? 'and its' : `${what}'s`} ${formatCount(searches)} searches may cross the ` +
        `${formatCount(searchesLeft)} live searches left this month (${plan} plan: ${limitText(monthly, 'a month')}; ` +
        `this machine ran ${formatCount(totals.thisMonth.searches)} searches this month, cached ones included)`,
    );
  }
  if (clauses.length === 0) return;
  ui.warn(`${clauses.join('; ')}; it may stop at the limit with exit 5`);
}

function limitText(limit: StrictestLimit, unit: string): string {
  return `${formatCount(limit.limit)} ${unit} under the spec's variant ${limit.variant.toUpperCase()}`;
}
