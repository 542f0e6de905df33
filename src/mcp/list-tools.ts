// list_leads and list_search_history: one page, or (with max_items or since) up to max_items items
// through the pager of `leadctl leads --all`. Either is cut to the result size cap, the rest held.
import { fetchListPage } from '../api/paging/index.js';
import { parseSince } from '../api/timestamp.js';
import { RESOURCES } from '../resources.js';
import { formatCount, pagePosition } from '../ui/ui.js';
import type { Counts } from '../usage/ledger.js';
import { usageReport } from '../usage/report.js';
import { type Part, projectFields } from './continuations.js';
import { MAX_ITEMS_CAP } from './defaults.js';
import type { ToolCall, ToolDeps } from './deps.js';
import { CallDeadlineError, describeFailure } from './failure-text.js';
import type { ListInput } from './schemas.js';
import { errorResult, successResult, type ToolResult } from './tool-result.js';

type Resource = 'leads' | 'history';
type Item = Record<string, unknown>;
const TOOL = { leads: 'list_leads', history: 'list_search_history' } as const;

export async function runListTool(
  resource: Resource,
  args: ListInput,
  deps: ToolDeps,
  call: ToolCall,
): Promise<ToolResult> {
  const tool = TOOL[resource];
  // A whole page's next_page names the server's next page (answer() below).
  const serverPage = new RegExp(`^${tool}:page:(\\d+)$`).exec(args.next_page?.trim() ?? '');
  const { next_page: _, ...rest } = args;
  const input = serverPage ? { ...rest, page: Number(serverPage[1]) } : args;
  const check = JSON.stringify([input.page, input.limit, input.since, input.max_items]);
  const project = projectFields(input.fields);
  if (input.next_page !== undefined) {
    const { part, extra } = deps.continuations.resume(tool, check, input.next_page, project);
    return answer(resource, deps, part, extra);
  }
  // A bad `since` is refused before any request.
  const since = input.since === undefined ? undefined : parseSince(input.since, Date.now());
  const { items, extra } =
    input.max_items === undefined && since === undefined
      ? await onePage(resource, input, deps, call)
      : await manyPages(resource, input, since, deps, call);
  if (extra.failure !== undefined) return errorResult(extra.failure, deps.failure);
  const part = deps.continuations.part(tool, check, items, project, extra);
  return answer(resource, deps, part, extra);
}

interface Fetched {
  items: Item[];
  extra: Record<string, unknown>;
}

async function onePage(
  resource: Resource,
  input: ListInput,
  deps: ToolDeps,
  call: ToolCall,
): Promise<Fetched> {
  const page = input.page ?? 1;
  const limit = input.limit ?? 25;
  const { items, meta } = await fetchListPage(deps.client, resource, page, limit, call.signal);
  const next = meta.page < meta.totalPages ? meta.page + 1 : undefined;
  const noun = RESOURCES[resource].noun;
  let summary = pagePosition(meta, items.length, noun);
  if (items.length > 0 && next !== undefined) summary += ` Next: page ${formatCount(next)}.`;
  return {
    items: items as Item[],
    extra: {
      summary,
      page: meta.page,
      limit: meta.limit,
      total: meta.total,
      total_pages: meta.totalPages,
      ...(next === undefined ? {} : { next_server_page: next }),
    },
  };
}

async function manyPages(
  resource: Resource,
  input: ListInput,
  since: Date | undefined,
  deps: ToolDeps,
  call: ToolCall,
): Promise<Fetched> {
  const maxItems = input.max_items ?? MAX_ITEMS_CAP;
  // The biggest page spends the fewest requests, unless fewer items are wanted.
  const limit = input.limit ?? Math.min(100, maxItems);
  const page = input.page ?? 1;
  const noun = RESOURCES[resource].noun;
  const items: Item[] = [];
  let total: number | undefined;
  let stoppedBy: unknown;
  try {
    // One page in flight: a few pages at most, and a request count the budget can predict.
    const pages = deps.client.paginatePages(resource, {
      limit,
      startPage: page,
      concurrency: 1,
      maxItems,
      ...(since === undefined ? {} : { since }),
      signal: call.signal,
      onProgress: (p) => {
        total = p.total;
      },
    });
    for await (const batch of pages) {
      items.push(...(batch as Item[]));
      const goal =
        total === undefined ? maxItems : Math.min(maxItems, Math.max(0, total - (page - 1) * limit));
      call.progress(
        items.length,
        since === undefined ? goal : undefined,
        `read ${formatCount(items.length)} ${noun}`,
      );
    }
  } catch (error) {
    // Items already fetched are worth returning, with why the rest is missing; nothing fetched is an error.
    const cancelled = call.signal.aborted && !(call.signal.reason instanceof CallDeadlineError);
    if (items.length === 0 || cancelled) return { items, extra: { failure: error } };
    deps.pause.note(error);
    stoppedBy = error;
  }
  const reachedMax = stoppedBy === undefined && items.length >= maxItems;
  let summary = `Read ${formatCount(items.length)} ${noun}`;
  if (since !== undefined) summary += ` newer than ${since.toISOString()}`;
  if (page > 1) summary += ` from page ${formatCount(page)} on`;
  summary += total === undefined ? '.' : ` (the list holds ${formatCount(total)}).`;
  if (reachedMax) summary += ` Stopped at max_items (${formatCount(maxItems)}).`;
  const stoppedEarly =
    stoppedBy === undefined ? undefined : describeFailure(stoppedBy, deps.failure).lines.join(' ');
  if (stoppedEarly !== undefined) summary += `\nStopped early: ${stoppedEarly}`;
  return {
    items,
    extra: {
      summary,
      page,
      limit,
      ...(total === undefined ? {} : { total }),
      reached_max_items: reachedMax,
      ...(stoppedEarly === undefined ? {} : { stopped_early: stoppedEarly }),
    },
  };
}

function answer(resource: Resource, deps: ToolDeps, part: Part, extra: Record<string, unknown>): ToolResult {
  const { summary, next_server_page: nextServerPage, ...data } = extra;
  let text = String(summary);
  if (part.truncated || part.offset > 0) {
    text += `\nThis answer holds items ${formatCount(part.offset + 1)}–${formatCount(part.offset + part.items.length)} of the ${formatCount(part.total)} read`;
    text += part.truncated
      ? ` (cut to fit a context window): pass next_page "${part.nextPage}" with the same arguments for the rest, at no cost.`
      : '.';
  }
  text += `\n${deps.budget.describe()}`;
  // A cut answer continues with its token; a whole page continues with the server's next page.
  const whole = part.offset + part.items.length >= part.total && nextServerPage !== undefined;
  const next = part.nextPage ?? (whole ? `${TOOL[resource]}:page:${nextServerPage}` : undefined);
  return successResult(
    text,
    {
      [resource]: part.items,
      returned: part.items.length,
      ...data,
      truncated: part.truncated,
      ...(next === undefined ? {} : { next_page: next }),
    },
    deps.mask,
  );
}

// `usage`: the ledger plus requests not yet in it, the plan's limits, the budget and caps. Sends no request.
export function runUsageTool(deps: ToolDeps): ToolResult {
  // Without the ledger's path: it shows the user's home folder, and the model has no use for it.
  const {
    report: { ledger: _, ...report },
    totals,
  } = usageReport(deps.usage, Date.now());
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
    maxSearches: deps.searches.caps.maxSearches,
    searchesToday: totals.today.searches,
    maxSearchesPerDay: deps.searches.caps.maxSearchesPerDay,
    ...(paused ? { rateLimitedUntil: paused.toISOString() } : {}),
  };
  return successResult(summary, { ...report, session }, deps.mask, 'leadctl');
}

function counts(c: Counts): string {
  return `${formatCount(c.requests)} requests, ${formatCount(c.searches)} searches, ${formatCount(c.rateLimited)} rate-limited`;
}
