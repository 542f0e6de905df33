// search_businesses: one POST /search within the live-search caps, optionally without the businesses
// the account already saved, cut to the result size cap with a next_page token for the rest. The
// summary is made of the model's own arguments and our counts: the server's echoes stay in the data.
import { ExactNumber } from '../api/exact-number.js';
import type { SearchResult } from '../api/schemas.js';
import { type MatchRule, SuppressionIndex } from '../text/business-match.js';
import { formatCount } from '../ui/ui.js';
import { projectFields } from './continuations.js';
import type { ToolCall, ToolDeps } from './deps.js';
import { describeFailure } from './failure-text.js';
import type { SearchInput } from './schemas.js';
import { successResult, type ToolResult } from './tool-result.js';

const TOOL = 'search_businesses';

export async function runSearchTool(input: SearchInput, deps: ToolDeps, call: ToolCall): Promise<ToolResult> {
  const check = JSON.stringify([
    input.query,
    input.location,
    input.radius ?? null,
    input.exclude_saved ?? false,
    input.sort_by ?? null,
    input.max_results ?? null,
  ]);
  const project = projectFields(input.fields);
  if (input.next_page !== undefined) {
    const { held, id, offset } = deps.continuations.resume(TOOL, check, input.next_page);
    const part = deps.continuations.part(TOOL, check, held.items, project, held.extra, offset, id);
    return answer(input, deps, part, held.extra);
  }

  // Saved leads first: if they cannot be read, no search has been spent.
  let index: SuppressionIndex | undefined;
  const extra: Record<string, unknown> = {};
  let savedNote = '';
  if (input.exclude_saved) {
    const saved = await deps.savedLeads.load(call.signal, call.progress);
    index = new SuppressionIndex();
    for (const lead of saved.leads) index.add(lead);
    extra.saved_leads_checked = saved.leads.length;
    extra.saved_leads_complete = saved.complete;
    if (!saved.complete) {
      savedNote = ` Only ${formatCount(saved.leads.length)} saved leads could be compared${saved.total === undefined ? '' : ` of ${formatCount(saved.total)}`}, so some results may already be saved.`;
      if (saved.stoppedBy !== undefined && typeof saved.stoppedBy !== 'string') {
        deps.pause.note(saved.stoppedBy);
        savedNote += ` (${describeFailure(saved.stoppedBy, deps.failure).lines[0]})`;
      }
    }
  }

  call.progress(0, undefined, 'searching');
  const response = await deps.searches.run(call.signal, () =>
    deps.client.search(
      {
        query: input.query,
        location: input.location,
        ...(input.radius === undefined ? {} : { radius: input.radius }),
      },
      { signal: call.signal },
    ),
  );
  let results: SearchResult[] = response.results;
  extra.found = results.length;
  if (index) {
    const kept: SearchResult[] = [];
    const excludedBy: Partial<Record<MatchRule, number>> = {};
    for (const result of results) {
      const rule = index.matches(result);
      if (rule === undefined) kept.push(result);
      else excludedBy[rule] = (excludedBy[rule] ?? 0) + 1;
    }
    extra.excluded_saved = results.length - kept.length;
    extra.excluded_by = excludedBy;
    results = kept;
  }
  if (input.sort_by !== undefined) results = sortedBy(results, input.sort_by);
  if (input.max_results !== undefined && results.length > input.max_results) {
    extra.left_out_by_max_results = results.length - input.max_results;
    results = results.slice(0, input.max_results);
  }
  extra.query = response.query;
  extra.location = response.location;
  extra.count = response.count;
  extra.note = savedNote;
  const part = deps.continuations.part(TOOL, check, results, project, extra);
  return answer(input, deps, part, extra);
}

function answer(
  input: SearchInput,
  deps: ToolDeps,
  part: ReturnType<ToolDeps['continuations']['part']>,
  extra: Record<string, unknown>,
): ToolResult {
  const { note, ...data } = extra;
  const found = Number(extra.found);
  const where = `for "${input.query}" near ${input.location}${input.radius === undefined ? '' : ` within ${input.radius} miles`}`;
  let summary = `${formatCount(found)} ${found === 1 ? 'result' : 'results'} ${where}.`;
  if (extra.excluded_saved !== undefined) {
    const excluded = Number(extra.excluded_saved);
    summary += ` ${formatCount(excluded)} left out as already saved; ${formatCount(found - excluded)} new.`;
  }
  if (extra.left_out_by_max_results !== undefined) {
    summary += ` Returning the first ${formatCount(part.total)}${input.sort_by ? ` by ${input.sort_by}` : ''} (max_results).`;
  } else if (input.sort_by !== undefined) summary += ` Sorted by ${input.sort_by}, highest first.`;
  summary += String(note ?? '');
  if (part.truncated || part.offset > 0) {
    summary += ` This answer holds ${formatCount(part.offset + 1)}–${formatCount(part.offset + part.items.length)} of ${formatCount(part.total)}`;
    summary += part.truncated
      ? ` (cut to fit a context window): pass next_page "${part.nextPage}" with the same arguments for more, at no cost.`
      : '.';
  }
  summary += ` ${deps.searches.describe()} ${deps.budget.describe()}`;
  return successResult(
    summary,
    {
      ...data,
      returned: part.items.length,
      offset: part.offset,
      results: part.items,
      truncated: part.truncated,
      ...(part.nextPage === undefined ? {} : { next_page: part.nextPage }),
    },
    deps.mask,
  );
}

/** Highest first; a result whose field is not a number goes last; ties keep the server's order. */
function sortedBy(results: SearchResult[], field: 'rating' | 'review_count'): SearchResult[] {
  const value = (result: SearchResult) => {
    const raw = (result as Record<string, unknown>)[field];
    const n = Number(raw instanceof ExactNumber ? raw.digits : raw);
    return raw === null || raw === undefined || !Number.isFinite(n) ? Number.NEGATIVE_INFINITY : n;
  };
  return results
    .map((result, index) => ({ result, index, key: value(result) }))
    .sort((a, b) => b.key - a.key || a.index - b.index)
    .map((entry) => entry.result);
}
