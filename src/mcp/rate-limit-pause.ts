// After a 429 beyond --max-wait, tools that send requests refuse at once until the reset: a model that
// keeps calling would otherwise spend a request per call. Kept per profile, server and key beside the
// ledger (docs/mcp.md, "Limits and errors"); best effort: a file unreadable only loses it on restart.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { RateLimitedError } from '../api/errors.js';
import { describeDuration } from '../api/retry.js';
import { writeAtomically } from '../usage/ledger.js';

interface PauseStore {
  file: string;
  /** Which account on which server, with which key, the pause is for (pauseKey). */
  key: string;
}

export function pauseKey(ledgerKey: { profile: string; baseUrl: string }, apiKey: string): string {
  return `${ledgerKey.profile} ${ledgerKey.baseUrl} ${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

export class RateLimitPause {
  readonly #now: () => number;
  readonly #store: PauseStore | undefined;
  #until: Date | undefined;

  constructor(store?: PauseStore, now: () => number = Date.now) {
    this.#now = now;
    this.#store = store;
    const kept = store ? readPauses(store.file)[store.key] : undefined;
    const at = kept === undefined ? Number.NaN : Date.parse(kept);
    if (at > now()) this.#until = new Date(at);
  }

  /** Looks at a failure: a rate limit with a reset time in the future pauses the session until then. */
  note(error: unknown): void {
    if (!(error instanceof RateLimitedError) || !error.resetAt) return;
    if (error.resetAt.getTime() <= this.#now()) return;
    if (this.#until && error.resetAt <= this.#until) return;
    this.#until = error.resetAt;
    if (this.#store) writePause(this.#store, error.resetAt, this.#now());
  }

  /** When the pause ends, if one is running now. */
  get until(): Date | undefined {
    if (this.#until && this.#until.getTime() <= this.#now()) this.#until = undefined;
    return this.#until;
  }

  /** The refusal's lines while paused, or undefined. */
  refusal(capsText: string): string[] | undefined {
    const until = this.until;
    if (!until) return undefined;
    return [
      `leadctl: the API's rate limit is reached until ${until.toISOString()} (${describeDuration(until.getTime() - this.#now())}); no request was sent.`,
      `Tools that send requests answer this way until then; the usage tool still works. ${capsText} Tell the user when the limit resets.`,
    ];
  }
}

function readPauses(file: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const pauses = (parsed as { pauses?: unknown }).pauses;
    if (pauses === null || typeof pauses !== 'object') return {};
    return Object.fromEntries(
      Object.entries(pauses).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

function writePause(store: PauseStore, until: Date, nowMs: number): void {
  const pauses = Object.fromEntries(
    Object.entries(readPauses(store.file)).filter(([, at]) => Date.parse(at) > nowMs),
  );
  pauses[store.key] = until.toISOString();
  try {
    writeAtomically(store.file, `${JSON.stringify({ version: 1, pauses })}\n`);
  } catch {}
}
