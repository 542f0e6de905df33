// The live-search caps of `leadctl mcp`: at most --max-searches per session and --max-searches-per-day
// per UTC day for the profile and server, counted in the usage ledger so that restarts and servers
// running side by side share one count. The client cannot tell a cached search from a live one, so
// every search the server answered counts (the cap errs on the side of spending less).
//
// A search runs under the machine-wide SearchLock: the day's count is read from the ledger, the
// search is sent, and the ledger is written (recorder.flush) before the next server may read it.
import type { AttemptEvent } from '../api/client.js';
import { ExitCode, LeadError } from '../api/errors.js';
import { formatCount } from '../ui/ui.js';
import type { UsageRecorder } from '../usage/recorder.js';
import { usageTotals } from '../usage/report.js';
import { SearchLock } from './search-lock.js';

export interface SearchCaps {
  perSession: number;
  perDay: number;
}

export class SearchCapError extends LeadError {
  constructor(message: string, hint: string) {
    // Exit 5 in the CLI's table: out of quota.
    super(message, { exitCode: ExitCode.rateLimited, hint });
  }
}

export class SearchGate {
  readonly caps: SearchCaps;
  readonly #usage: UsageRecorder;
  readonly #lock: SearchLock;
  readonly #now: () => number;
  #sessionSearches = 0;

  constructor(caps: SearchCaps, usage: UsageRecorder, now: () => number = Date.now) {
    this.caps = caps;
    this.#usage = usage;
    this.#lock = new SearchLock(usage.file);
    this.#now = now;
  }

  get sessionSearches(): number {
    return this.#sessionSearches;
  }

  /** Searches this machine sent today for this profile and server: the ledger plus what is not yet in it. */
  searchesToday(): number {
    return usageTotals(this.#usage.file, this.#usage.key, this.#usage.run, this.#now()).today.searches;
  }

  /** Runs one search if both caps allow it; throws SearchCapError, sending nothing, if not. */
  async run<T>(signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    this.#checkSession();
    return this.#lock.hold(signal, async () => {
      this.#checkSession();
      const today = this.searchesToday();
      if (today >= this.caps.perDay) {
        throw new SearchCapError(
          `the daily live-search cap is reached: ${formatCount(today)} searches were sent today (UTC) for this account from this machine, and the user allows ${formatCount(this.caps.perDay)} a day (--max-searches-per-day); no search was sent`,
          `${this.rulesText()} The cap resets at 00:00 UTC. Saved leads and past searches can still be read. Tell the user.`,
        );
      }
      try {
        return await send();
      } finally {
        await this.#usage.flush();
      }
    });
  }

  /**
   * For the client's hooks: counts each search the server answered (2xx), as the ledger does. A hook,
   * not the tool's outcome, so that a search answered and then unreadable, or answered as the call
   * was cancelled, is still counted.
   */
  readonly onAttempt = (event: AttemptEvent): void => {
    if (event.method !== 'POST' || event.status === undefined || event.status < 200 || event.status >= 300)
      return;
    if (/\/search$/.test(new URL(event.url).pathname)) this.#sessionSearches += 1;
  };

  /** The caps in one sentence, for the server's instructions and every refusal. */
  rulesText(): string {
    return `This server sends at most ${formatCount(this.caps.perSession)} searches per session and ${formatCount(this.caps.perDay)} per UTC day (set by the user).`;
  }

  describe(): string {
    const session = Math.max(0, this.caps.perSession - this.#sessionSearches);
    const day = Math.max(0, this.caps.perDay - this.searchesToday());
    return `Searches left: ${formatCount(Math.min(session, day))} (${formatCount(session)} of ${formatCount(this.caps.perSession)} this session, ${formatCount(day)} of ${formatCount(this.caps.perDay)} today).`;
  }

  #checkSession(): void {
    if (this.#sessionSearches < this.caps.perSession) return;
    throw new SearchCapError(
      `this session's live-search cap is reached: it has sent ${formatCount(this.#sessionSearches)} searches, the most the user allows per session (--max-searches ${this.caps.perSession}); no search was sent`,
      `${this.rulesText()} Work with the results already returned, saved leads and past searches, or tell the user; only they can allow more by restarting the server.`,
    );
  }
}
