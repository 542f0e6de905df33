// list_leads and list_search_history: one page and where the next one is, or (with max_items or
// since) up to max_items items through the same pager as `leadctl leads --all`.
import { parseSince } from '../api/since.js';
import { RESOURCES } from '../resources.js';
import { formatCount } from '../ui/count.js';
import { errorLines } from '../ui/error-lines.js';
import { type ListInput, MAX_ITEMS_CAP } from './schemas.js';
import { errorResult, safeText, successResult, type ToolDeps, type ToolResult } from './tool-result.js';

type Resource = 'leads' | 'history';
type Item = Record<string, unknown>;

/** The key the items travel under, as in the API's own envelope. */
const ITEMS_KEY = { leads: 'leads', history: 'history' } as const;

export async function runListTool(
  resource: Resource,
  input: ListInput,
  deps: ToolDeps,
  signal: AbortSignal,
): Promise<ToolResult> {
  // A bad `since` is refused before any request, like the CLI's --since.
  const since = input.since === undefined ? undefined : parseSince(input.since, Date.now());
  if (input.max_items === undefined && since === undefined) return onePage(resource, input, deps, signal);
  return manyPages(resource, input, since, deps, signal);
}

async function onePage(resource: Resource, input: ListInput, deps: ToolDeps, signal: AbortSignal) {
  const page = input.page ?? 1;
  const limit = input.limit ?? 25;
  const { items, meta } =
    resource === 'leads'
      ? await deps.client
          .listLeads({ page, limit }, { signal })
          .then((r) => ({ items: r.leads, meta: r.meta }))
      : await deps.client
          .listHistory({ page, limit }, { signal })
          .then((r) => ({ items: r.history, meta: r.meta }));
  const noun = RESOURCES[resource].noun;
  const next = meta.page < meta.totalPages ? meta.page + 1 : undefined;
  let summary: string;
  if (items.length === 0) {
    summary =
      meta.total === 0
        ? `No ${noun}.`
        : `No ${noun} on page ${count(meta.page)}: there are ${count(meta.total)} ${noun} on ${count(meta.totalPages)} pages of ${meta.limit}.`;
  } else {
    const first = (meta.page - 1) * meta.limit + 1;
    summary = `Showing ${count(first)}–${count(first + items.length - 1)} of ${count(meta.total)} ${noun} (page ${count(meta.page)} of ${count(meta.totalPages)}).`;
    if (next !== undefined) summary += ` Next: page ${count(next)}.`;
  }
  const data = {
    [ITEMS_KEY[resource]]: items,
    returned: items.length,
    page: meta.page,
    limit: meta.limit,
    total: meta.total,
    total_pages: meta.totalPages,
    ...(next === undefined ? {} : { next_page: next }),
  };
  return successResult(`${summary} ${deps.budget.describe()}`, data, deps.mask);
}

async function manyPages(
  resource: Resource,
  input: ListInput,
  since: Date | undefined,
  deps: ToolDeps,
  signal: AbortSignal,
): Promise<ToolResult> {
  const maxItems = input.max_items ?? MAX_ITEMS_CAP;
  // The biggest page spends the fewest requests, unless fewer items are wanted.
  const limit = input.limit ?? Math.min(100, maxItems);
  const page = input.page ?? 1;
  const items: Item[] = [];
  let total: number | undefined;
  let stoppedEarly: string | undefined;
  try {
    // One page in flight: a few pages at most, and a request count the budget can predict.
    const pages = deps.client.paginatePages(resource, {
      limit,
      startPage: page,
      concurrency: 1,
      maxItems,
      ...(since === undefined ? {} : { since }),
      signal,
      onProgress: (p) => {
        total = p.total;
      },
    });
    for await (const batch of pages) items.push(...(batch as Item[]));
  } catch (error) {
    // Items already fetched are worth returning, with why the rest is missing; nothing fetched is an error.
    if (items.length === 0 || signal.aborted) return errorResult(error, deps.mask);
    stoppedEarly = safeText(errorLines(error).join('\n'), deps.mask);
  }
  const noun = RESOURCES[resource].noun;
  const reachedMax = stoppedEarly === undefined && items.length >= maxItems;
  let summary = `Returned ${count(items.length)} ${noun}`;
  if (since !== undefined) summary += ` newer than ${since.toISOString()}`;
  if (page > 1) summary += ` from page ${count(page)} on`;
  summary += total === undefined ? '.' : ` (the list holds ${count(total)}).`;
  if (reachedMax) summary += ` Stopped at max_items (${count(maxItems)}).`;
  if (stoppedEarly !== undefined) summary += `\nStopped early:\n${stoppedEarly}`;
  const data = {
    [ITEMS_KEY[resource]]: items,
    returned: items.length,
    page,
    limit,
    ...(total === undefined ? {} : { total }),
    reached_max_items: reachedMax,
    ...(stoppedEarly === undefined ? {} : { stopped_early: stoppedEarly }),
  };
  return successResult(`${summary}\n${deps.budget.describe()}`, data, deps.mask);
}

const count = formatCount;
