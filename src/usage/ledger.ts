// The usage ledger (docs/usage.md): everything that touches `usage.json` is here; the recorder
// (recorder.ts) counts a run in memory and the report (report.ts) reads what is counted.
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { resolveApiRoot } from '../api/url.js';
import { type FolderRole, xdgLeadctlDir } from '../config/paths.js';
import { describeFsError, errorCode } from '../config/store.js';
import { withLock } from '../lock.js';

// Checked on every read: anything else (a hand edit, another program's crash, a newer format) counts as no
// ledger, and the next write starts a new one.
const COUNT = z.int().check(z.minimum(0));

const COUNTS = z.object({ requests: COUNT, searches: COUNT, rateLimited: COUNT });

const ENTRY = z.object({
  profile: z.string(),
  /** The API root (`https://host/api/v1/`), or `sandbox` for the in-process sandbox of --sandbox. */
  baseUrl: z.string(),
  days: z.record(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), COUNTS),
  months: z.record(z.string().check(z.regex(/^\d{4}-\d{2}$/)), COUNTS),
});

const LEDGER = z.object({ version: z.literal(1), entries: z.array(ENTRY) });

export type Counts = z.infer<typeof COUNTS>;
type LedgerEntry = z.infer<typeof ENTRY>;
export type Ledger = z.infer<typeof LEDGER>;

export function zeroCounts(): Counts {
  return { requests: 0, searches: 0, rateLimited: 0 };
}

function emptyLedger(): Ledger {
  return { version: 1, entries: [] };
}

// UTC days and months, as the API's counters (the spec does not say when they reset; UTC midnight is common).
/** `2026-11-23` */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `2026-11` */
export function utcMonth(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The month `back` months before the one of `ms`: the oldest month the ledger keeps. */
function utcMonthBefore(ms: number, back: number): string {
  const date = new Date(ms);
  return utcMonth(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1));
}

// --sandbox listens on a new port each run: it is counted as one server, `sandbox`.
export const SANDBOX_KEY = 'sandbox';

export function ledgerKey(profile: string, baseUrl: string, source: string | undefined): LedgerKey {
  if (source === 'sandbox') return { profile, baseUrl: SANDBOX_KEY };
  const root = resolveApiRoot(baseUrl);
  if (['localhost', '[::1]'].includes(root.hostname)) root.hostname = '127.0.0.1';
  return { profile, baseUrl: root.href };
}

/** Which account on which server a count belongs to. */
export interface LedgerKey {
  profile: string;
  baseUrl: string;
}

export function addCounts(into: Counts, add: Counts): Counts {
  return {
    requests: into.requests + add.requests,
    searches: into.searches + add.searches,
    rateLimited: into.rateLimited + add.rateLimited,
  };
}

export function findEntry(ledger: Ledger, key: LedgerKey): LedgerEntry | undefined {
  return ledger.entries.find((entry) => entry.profile === key.profile && entry.baseUrl === key.baseUrl);
}

/** The run's counts per UTC day (`2026-11-23`) added to the key's entry; then old periods pruned. */
export function addRun(
  ledger: Ledger,
  key: LedgerKey,
  byDay: ReadonlyMap<string, Counts>,
  nowMs: number,
): Ledger {
  const entries = ledger.entries.map((entry) => ({
    ...entry,
    days: { ...entry.days },
    months: { ...entry.months },
  }));
  let entry = findEntry({ ...ledger, entries }, key);
  if (!entry) {
    entry = { profile: key.profile, baseUrl: key.baseUrl, days: {}, months: {} };
    entries.push(entry);
  }
  for (const [day, counts] of byDay) {
    const month = day.slice(0, 7);
    entry.days[day] = addCounts(entry.days[day] ?? zeroCounts(), counts);
    entry.months[month] = addCounts(entry.months[month] ?? zeroCounts(), counts);
  }
  return prune({ version: 1, entries }, nowMs);
}

function prune(ledger: Ledger, nowMs: number): Ledger {
  const oldestDayMonth = utcMonthBefore(nowMs, 1);
  const oldestMonth = utcMonthBefore(nowMs, 11);
  const keep = <T>(record: Record<string, T>, oldest: string) =>
    Object.fromEntries(Object.entries(record).filter(([period]) => period.slice(0, 7) >= oldest));
  const entries = ledger.entries
    .map((entry) => ({
      ...entry,
      days: keep(entry.days, oldestDayMonth),
      months: keep(entry.months, oldestMonth),
    }))
    .filter((entry) => Object.keys(entry.months).length > 0);
  return { version: 1, entries };
}

export const STATE_FOLDER: FolderRole = {
  label: 'state folder',
  variable: 'XDG_STATE_HOME',
  fallback: '~/.local/state',
};

export function stateDir(env: NodeJS.ProcessEnv): string {
  return xdgLeadctlDir(env, STATE_FOLDER);
}

export function ledgerFile(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), 'usage.json');
}

// Reads take no lock: a write renames a whole file over the old. An update re-reads under the lock, so runs
// that end together each keep their counts.
interface LedgerRead {
  ledger: Ledger;
  /** Why an existing file was not usable (then `ledger` is empty). */
  problem?: string;
}

export function readLedger(file: string): LedgerRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return { ledger: emptyLedger() };
    return { ledger: emptyLedger(), problem: describeFsError(error) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ledger: emptyLedger(), problem: 'it is not valid JSON' };
  }
  const checked = LEDGER.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ledger: emptyLedger(), problem: `it is not a usage ledger of this leadctl${where}` };
  }
  return { ledger: checked.data };
}

/** Under the lock, atomically (0600); returns a replaced file's problem. Throws if lock or write fails. */
export function updateLedger(file: string, change: (ledger: Ledger) => Ledger): Promise<string | undefined> {
  return withLock(`${file}.lock`, {}, (lock) => {
    const { ledger, problem } = readLedger(file);
    const text = `${JSON.stringify(change(ledger))}\n`;
    lock.check();
    writeAtomically(file, text);
    return problem;
  });
}

export function writeAtomically(file: string, text: string): void {
  const temporary = path.join(
    path.dirname(file),
    // pid and a random part (not node:crypto: start-up cost); 'wx' refuses any name already there.
    `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
  try {
    fs.writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
