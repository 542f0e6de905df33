// Counting one run's requests in memory, through the client's hooks, and adding them to the ledger
// once, when the run ends (success, failure or Ctrl-C): an export pays nothing per request but a
// counter increment. Recording never fails a command: a ledger that cannot be written is a warning.
import type { AttemptEvent, ClientHooks } from '../api/client.js';
import { FileLockedError } from '../config/file-lock.js';
import type { PlanName } from '../config/keys.js';
import { makePrivateDir } from '../config/paths.js';
import { describeFsError } from '../config/store.js';
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

export interface UsageRecorder {
  readonly file: string;
  readonly key: LedgerKey;
  readonly plan: PlanName | undefined;
  /** For the client: counts every attempt it reports. */
  readonly hooks: ClientHooks;
  /** What this run has sent so far, per UTC day. */
  readonly run: ReadonlyMap<string, Counts>;
  /** Says once that the ledger file was unreadable and a new one is started. */
  reportProblem(problem: string): void;
  /** Adds the run's counts to the ledger; never throws. Later calls add only what came since. */
  flush(): Promise<void>;
}

export interface RecorderOptions {
  env: NodeJS.ProcessEnv;
  key: LedgerKey;
  plan: PlanName | undefined;
  warn(message: string): void;
  now?: () => number;
}

/**
 * Creates the state folder now (0700). The ledger is optional: a folder that cannot be made (a
 * read-only HOME, a full disk) is one warning, this run is not counted, and the command goes on.
 */
export function createUsageRecorder(options: RecorderOptions): UsageRecorder {
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

  const count = (event: AttemptEvent) => {
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

  const reportProblem = (problem: string) => {
    if (problemReported) return;
    problemReported = true;
    warn(`usage ledger ${file} was unreadable (${problem}); starting a new one`);
  };

  return {
    file,
    key,
    plan,
    run,
    hooks: { onAttempt: count },
    reportProblem,
    flush: async () => {
      if (run.size === 0 || !usable) return;
      const counted = new Map(run);
      run.clear();
      try {
        const problem = await updateLedger(file, (ledger) => addRun(ledger, key, counted, now()));
        if (problem) reportProblem(problem);
      } catch (error) {
        const reason =
          error instanceof FileLockedError
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
