// A live search runs only with the user's yes, asked by elicitation where the host can, else through a
// quote and a confirm token: docs/mcp.md, "Asking before spending".
import { UsageError } from '../api/errors.js';
import { formatCount } from '../ui/ui.js';
import { MAX_SAVED_LEADS } from './defaults.js';
import type { ToolCall, ToolDeps } from './deps.js';
import { CallDeadlineError } from './failure-text.js';
import type { SearchInput } from './schemas.js';
import { refusalResult, successResult, type ToolResult } from './tool-result.js';

const QUOTE_MS = 10 * 60_000;
const QUOTES_KEPT = 20;
const ASK_AGAIN =
  'Call search_businesses without confirm for a new quote, show it to the user, and pass its token only if they agree.';

export class SpendConfirmation {
  readonly required: boolean;
  /** Open quotes: token → the arguments it was given for, and until when. */
  readonly #quotes = new Map<string, { check: string; expires: number }>();
  readonly #now: () => number;

  constructor(required: boolean, now: () => number = Date.now) {
    this.required = required;
    this.#now = now;
  }

  /** Undefined when the search may be sent now; otherwise what the call answers instead, sending nothing. */
  async check(
    input: SearchInput,
    check: string,
    deps: ToolDeps,
    call: ToolCall,
  ): Promise<ToolResult | undefined> {
    if (!this.required) return undefined;
    if (input.confirm !== undefined) return this.#redeem(input.confirm, check);
    // A search the caps refuse is refused now, not quoted.
    deps.searches.check();
    const cost = costOf(input, deps);
    if (call.ask) {
      const answer = await call.ask(`${cost.question} ${cost.text}`).catch((error: unknown) => {
        if (call.signal.reason instanceof CallDeadlineError) return 'late' as const;
        if (call.signal.aborted) throw error;
        return undefined; // The host failed to ask: a quote instead.
      });
      if (answer === 'accept') return undefined;
      if (answer === 'late') {
        return refusalResult([
          'leadctl: the user did not answer whether to run this search in time, so nothing was sent.',
          'Ask the user in the conversation, and call again if they agree.',
        ]);
      }
      if (answer !== undefined) {
        return refusalResult([
          'leadctl: the user did not agree to this search, so nothing was sent.',
          'Do not run it again unless the user asks for it.',
        ]);
      }
    }
    const token = globalThis.crypto.randomUUID();
    const expires = this.#now() + QUOTE_MS;
    this.#quotes.set(token, { check, expires });
    for (const old of this.#quotes.keys()) if (this.#quotes.size > QUOTES_KEPT) this.#quotes.delete(old);
    return successResult(
      `Not searched yet: this server asks the user before every live search. ${cost.question} ${cost.text} ` +
        `Ask the user; only if they agree, call search_businesses again with the same arguments and confirm: "${token}" ` +
        '(good for one search, within 10 minutes). Nothing was sent.',
      { quote: { ...cost.data, confirm: token, expires_at: new Date(expires).toISOString() } },
      deps.mask,
      'leadctl',
    );
  }

  /** Takes the token out of the open quotes; throws, sending nothing, if it does not fit this call. */
  #redeem(token: string, check: string): undefined {
    const quote = this.#quotes.get(token);
    this.#quotes.delete(token);
    const shown = token.slice(0, 60);
    if (!quote || quote.expires <= this.#now()) {
      throw new UsageError(
        `confirm "${shown}" is not an open quote of this server (a token runs one search, within 10 minutes of its quote); nothing was sent`,
        ASK_AGAIN,
      );
    }
    if (quote.check !== check) {
      throw new UsageError(`confirm "${shown}" was quoted for other arguments; nothing was sent`, ASK_AGAIN);
    }
    return undefined;
  }
}

/** What the search would spend and what is left: for the user (elicitation) and the quote alike. */
function costOf(input: SearchInput, deps: ToolDeps) {
  const { searches, usage } = deps;
  const sessionLeft = Math.max(0, searches.caps.maxSearches - searches.sessionSearches);
  const dayLeft = Math.max(0, searches.caps.maxSearchesPerDay - searches.searchesToday());
  const savedPages = MAX_SAVED_LEADS / 100;
  let left = `${formatCount(sessionLeft)} of ${formatCount(searches.caps.maxSearches)} searches this session and ${formatCount(dayLeft)} of ${formatCount(searches.caps.maxSearchesPerDay)} today (the user's limits for this server)`;
  const data: Record<string, unknown> = {
    query: input.query,
    location: input.location,
    ...(input.radius === undefined ? {} : { radius: input.radius }),
    requests: 1,
    ...(input.exclude_saved ? { saved_leads_requests_at_most: savedPages } : {}),
    live_searches: 1,
    may_be_answered_from_cache: true,
    searches_left_this_session: sessionLeft,
    searches_left_today: dayLeft,
    requests_left_this_session: deps.budget.remaining,
  };
  // What the server said is left (its rate-limit headers), never a guess between the plan tables.
  const server = usage.serverAllowance();
  if (server) {
    data.server_requests_left = server.remaining;
    const of = server.limit === undefined ? '' : ` of ${formatCount(server.limit)}`;
    left += `; ${formatCount(server.remaining)}${of} requests, as the server last said`;
  }
  const radius = input.radius === undefined ? '' : ` within ${input.radius} miles`;
  const saved = input.exclude_saved ? ` (and up to ${savedPages} more to read the saved leads first)` : '';
  return {
    question: `Search for "${input.query}" near ${input.location}${radius}?`,
    text:
      `It sends 1 request${saved} to the Lead Data API and spends 1 live search of the plan, unless the server ` +
      `answers it from its cache (nobody can know that beforehand; leadctl counts it as spent). Left: ${left}.`,
    data,
  };
}
