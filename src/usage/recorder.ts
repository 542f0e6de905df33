// Counts a run's requests in memory (client hooks) and adds them to the ledger once, when the run ends: an
// export pays a counter increment per request. A ledger that cannot be written is a warning, never a failure.
import type { AttemptEvent } from '../api/client-options.js';
import type { PageProgress } from '../api/paging/index.js';
import type { PlanName } from '../config/keys.js';
import { makePrivateDir } from '../config/paths.js';
import { describeFsError } from '../config/store.js';
import { LockedError } from '../lock.js';
import { formatCount, type Ui } from '../ui/ui.js';
import {
  addCounts,
  addRun,
  type Counts,
  type LedgerKey,
  ledgerFile,
  STATE_FOLDER,
  stateDir,
  updateLedger,
  utcDay,
  zeroCounts,
} from './ledger.js';
import { usageTotals } from './report.js';

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;

interface RecorderOptions {
  env: NodeJS.ProcessEnv;
  key: LedgerKey;
  plan: PlanName | undefined;
  warn(message: string): void;
  now?: () => number;
}

/** Creates the state folder now (0700); one that cannot be made is a warning and the run goes uncounted. */
export function createUsageRecorder(options: RecorderOptions) {
  const { env, key, plan, warn, now = Date.now } = options;
  const file = ledgerFile(env);
  let usable = true;
  try {
    makePrivateDir(stateDir(env), STATE_FOLDER);
  } catch (error) {
    usable = false;
    const reason = error instanceof Error ? error.message : String(error);
    warn(`${reason}; this run's requests are not counted in the usage ledger`);
  }
  const run = new Map<string, Counts>();
  let problemReported = false;
  let announced: ReturnType<typeof announcedAllowance>;

  const count = (event: AttemptEvent) => {
    announced = announcedAllowance(event.headers) ?? announced;
    const day = utcDay(now());
    // Every search that reached the server, or may have (no answer came back after it was written),
    // is a possible live search; only a 4xx (429 included) says the server did not run it.
    const refused = event.status !== undefined && event.status >= 400 && event.status < 500;
    const possiblyRun = event.sent === true && !refused;
    run.set(
      day,
      addCounts(run.get(day) ?? zeroCounts(), {
        requests: 1,
        // Cached or live, the client cannot tell (see docs/usage.md).
        searches: possiblyRun && isSearch(event) ? 1 : 0,
        rateLimited: event.status === 429 ? 1 : 0,
      }),
    );
  };

  /** Says once that the ledger file was unreadable and a new one is started. */
  const reportProblem = (problem: string) => {
    if (problemReported) return;
    problemReported = true;
    warn(`usage ledger ${file} was unreadable (${problem}); starting a new one`);
  };

  return {
    file,
    key,
    plan,
    /** What this run has sent so far, per UTC day. */
    run: run as ReadonlyMap<string, Counts>,
    /** What the server's latest answer said is left of its allowance, if it said. */
    serverAllowance: () => announced,
    hooks: { onAttempt: count },
    reportProblem,
    /** Adds the run's counts to the ledger; never throws. Later calls add only what came since. */
    flush: async () => {
      if (run.size === 0 || !usable) return;
      const counted = new Map(run);
      run.clear();
      try {
        const problem = await updateLedger(file, (ledger) => addRun(ledger, key, counted, now()));
        if (problem) reportProblem(problem);
      } catch (error) {
        // Kept, so that a long-lived process (`leadctl mcp` flushes after every call) adds them at its
        // next write and its daily cap, which reads the ledger plus `run`, still counts them.
        for (const [day, counts] of counted) run.set(day, addCounts(run.get(day) ?? zeroCounts(), counts));
        const reason =
          error instanceof LockedError
            ? `it is locked by another leadctl (remove ${file}.lock if none is running)`
            : describeFsError(error);
        warn(`this run's requests were not added to the usage ledger ${file}: ${reason}`);
      }
    },
  };
}

function isSearch(event: AttemptEvent): boolean {
  if (event.method !== 'POST') return false;
  try {
    return new URL(event.url).pathname.endsWith('/search');
  } catch {
    return false;
  }
}

// Warnings before spending, from what the server said is left, never the plan tables (docs/usage.md,
// "Warnings before spending").
interface Spender {
  usage: UsageRecorder;
  ui: Ui;
}

interface PagingPlan {
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
    warnIfOverQuota(spender, 'this export', Math.max(0, pages - progress.pagesFetched));
  };
}

/** `what` needs about `requests` more: says so if that crosses what the server said is left. */
export function warnIfOverQuota({ usage, ui }: Spender, what: string, requests: number): void {
  if (ui.quiet || requests === 0) return;
  const needs = `${what} needs about ${formatCount(requests)} more requests`;
  const said = usage.serverAllowance();
  if (said) {
    if (requests <= said.remaining) return;
    const of = said.limit === undefined ? '' : ` of ${formatCount(said.limit)}`;
    ui.warn(
      `${needs} but the server says ${formatCount(said.remaining)}${of} are left; it may stop with exit 5`,
    );
    return;
  }
  const totals = usageTotals(usage.file, usage.key, usage.run, Date.now());
  if (totals.problem) usage.reportProblem(totals.problem);
  const refused = totals.today.rateLimited;
  if (refused > 0) {
    ui.warn(
      `${needs}, and the server has refused ${formatCount(refused)} of this machine's requests today with 429 (rate limited); it may stop with exit 5`,
    );
  }
}

/** The allowance a response announced: X-RateLimit-Remaining and -Limit, or the IETF draft's RateLimit-*. */
function announcedAllowance(headers: AttemptEvent['headers']) {
  const read = (name: string) => {
    const text = String(headers?.[`x-ratelimit-${name}`] ?? headers?.[`ratelimit-${name}`] ?? '');
    return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
  };
  const remaining = read('remaining');
  return remaining === undefined ? undefined : { remaining, limit: read('limit') };
}
