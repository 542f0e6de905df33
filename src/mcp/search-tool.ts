// search_businesses: one POST /search within the live-search caps, optionally without saved businesses.
// The summary is made of the model's own arguments and our counts: the server's echoes stay in the data.
import type { AttemptEvent } from '../api/client-options.js';
import { ExitCode, LeadError } from '../api/errors.js';
import { ExactNumber } from '../api/exact-number.js';
import type { SearchResult } from '../api/schemas.js';
import { withLock } from '../lock.js';
import { type MatchRule, SuppressionIndex } from '../text/business-match.js';
import { formatCount } from '../ui/ui.js';
import type { UsageRecorder } from '../usage/recorder.js';
import { usageTotals } from '../usage/report.js';
import { type Part, partNote, projectFields } from './continuations.js';
import type { ToolCall, ToolDeps } from './deps.js';
import { describeFailure } from './failure-text.js';
import type { SearchInput } from './schemas.js';
import type { Limits } from './server.js';
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
    const { part, extra } = deps.continuations.resume(TOOL, check, input.next_page, project);
    return answer(input, deps, part, extra);
  }
  const unconfirmed = await deps.confirmation.check(input, check, deps, call);
  if (unconfirmed) return unconfirmed;

  // Saved leads first: if they cannot be read, no search has been spent.
  let index: SuppressionIndex | undefined;
  const extra: Record<string, unknown> = {};
  let savedNote = '';
  if (input.exclude_saved) {
    const saved = await deps.savedLeads.load(call.signal, call.progress);
    index = await SuppressionIndex.create();
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
    deps.client.search(input, { signal: call.signal }),
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

function answer(input: SearchInput, deps: ToolDeps, part: Part, extra: Record<string, unknown>): ToolResult {
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
  summary += `${String(note ?? '')}${partNote(part)} ${deps.searches.describe()} ${deps.budget.describe()}`;
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

// The caps, counted in the ledger under a lock (docs/mcp.md, "Limits and errors"); a hung holder: 10 min.
export class SearchGate {
  readonly caps: Limits;
  readonly #usage: UsageRecorder;
  readonly #lockPath: string;
  readonly #now: () => number;
  #sessionSearches = 0;

  constructor(caps: Limits, usage: UsageRecorder, now: () => number = Date.now) {
    this.caps = caps;
    this.#usage = usage;
    this.#lockPath = `${usage.file}.mcp-search.lock`;
    this.#now = now;
  }

  get sessionSearches(): number {
    return this.#sessionSearches;
  }

  /** Searches this machine sent today for this profile and server: the ledger plus what is not yet in it. */
  searchesToday(): number {
    return usageTotals(this.#usage.file, this.#usage.key, this.#usage.run, this.#now()).today.searches;
  }

  /** Runs one search if both caps allow it; throws, sending nothing, if not. */
  async run<T>(signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    this.check();
    const options = { staleMs: 10 * 60_000, waitMs: Number.POSITIVE_INFINITY, signal };
    return withLock(this.#lockPath, options, async () => {
      this.check();
      try {
        return await send();
      } finally {
        await this.#usage.flush();
      }
    });
  }

  /** Throws if either cap is reached (exit 5 in the CLI's table: out of quota). */
  check(): void {
    if (this.#sessionSearches >= this.caps.maxSearches) {
      throw new LeadError(
        `this session's live-search cap is reached: it has sent ${formatCount(this.#sessionSearches)} searches, the most the user allows per session (--max-searches ${this.caps.maxSearches}); no search was sent`,
        {
          exitCode: ExitCode.rateLimited,
          hint: `${this.rulesText()} Work with the results already returned, saved leads and past searches, or tell the user; only they can allow more by restarting the server.`,
        },
      );
    }
    const today = this.searchesToday();
    if (today >= this.caps.maxSearchesPerDay) {
      throw new LeadError(
        `the daily live-search cap is reached: ${formatCount(today)} searches were sent today (UTC) for this account from this machine, and the user allows ${formatCount(this.caps.maxSearchesPerDay)} a day (--max-searches-per-day); no search was sent`,
        {
          exitCode: ExitCode.rateLimited,
          hint: `${this.rulesText()} The cap resets at 00:00 UTC. Saved leads and past searches can still be read. Tell the user.`,
        },
      );
    }
  }

  // Counts each 2xx search (the ledger also counts a 5xx or an unanswered one). A hook, not the tool's
  // outcome, so that a search answered then unreadable, or answered as the call was cancelled, counts.
  readonly onAttempt = (event: AttemptEvent): void => {
    if (event.method !== 'POST' || event.status === undefined || event.status < 200 || event.status >= 300)
      return;
    if (/\/search$/.test(new URL(event.url).pathname)) this.#sessionSearches += 1;
  };

  /** The caps in one sentence, for the server's instructions and every refusal. */
  rulesText(): string {
    return `This server sends at most ${formatCount(this.caps.maxSearches)} searches per session and ${formatCount(this.caps.maxSearchesPerDay)} per UTC day (set by the user).`;
  }

  describe(): string {
    const session = Math.max(0, this.caps.maxSearches - this.#sessionSearches);
    const day = Math.max(0, this.caps.maxSearchesPerDay - this.searchesToday());
    return `Searches left: ${formatCount(Math.min(session, day))} (${formatCount(session)} of ${formatCount(this.caps.maxSearches)} this session, ${formatCount(day)} of ${formatCount(this.caps.maxSearchesPerDay)} today).`;
  }
}
