// `leadctl usage`: the ledger's counts for this profile and base URL (none set: all of them, added up) today
// and this month, beside both plan tables' limits. No request, no lock.
import { resolveSettings } from '../../config/settings.js';
import { type CommandContext, openUi } from '../../session.js';
import { formatCount } from '../../ui/ui.js';
import {
  addCounts,
  type Counts,
  type LedgerKey,
  ledgerFile,
  ledgerKey,
  readLedger,
  SANDBOX_KEY,
  zeroCounts,
} from '../../usage/ledger.js';
import {
  PLAN_LIMITS,
  planLabel,
  type UsageReport,
  type UsageTotals,
  usageReport,
  type VariantLimits,
} from '../../usage/report.js';

const MACHINE_ONLY =
  'this machine only: other machines, other tools and the web app spend the same allowance';

export async function runUsage(flags: { json?: true }, ctx: CommandContext): Promise<void> {
  const { globals, io } = ctx;
  const ui = await openUi(ctx);
  const settings = await resolveSettings(
    { apiKey: globals.apiKey, baseUrl: globals.baseUrl, profile: globals.profile },
    io.env,
  );
  for (const warning of settings.warnings) ui.warn(warning);
  const baseUrl = globals.sandbox ? SANDBOX_KEY : settings.baseUrl;
  const file = ledgerFile(io.env);
  const plan = settings.plan;
  const keys = baseUrl
    ? [ledgerKey(settings.profile, baseUrl, globals.sandbox ? 'sandbox' : settings.baseUrlSource)]
    : profileKeys(file, settings.profile);
  const now = Date.now();
  const reports = keys.map((key) => usageReport({ file, key, plan }, now));
  const { report, totals } =
    baseUrl && reports[0]
      ? reports[0]
      : summed(reports, usageReport({ file, key: { profile: settings.profile, baseUrl: '' }, plan }, now));
  if (totals.problem) ui.warn(`usage ledger ${file} is unreadable (${totals.problem}); counting from zero`);
  const key = { profile: report.profile, baseUrl: report.baseUrl };

  if (flags.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }

  const lines: [string, string][] = [
    ['profile', key.profile],
    ['base URL', baseUrlText(key.baseUrl, keys.length)],
    ['today', `${totals.day} UTC: ${describeCounts(totals.today)}`],
    ['this month', `${totals.month} UTC: ${describeCounts(totals.thisMonth)}`],
  ];
  if (plan) {
    lines.push(['plan', `${planLabel(plan)} (config set plan); the spec publishes two plan tables:`]);
    for (const variant of ['a', 'b'] as const) {
      const text = describeVariant(PLAN_LIMITS[plan][variant], totals.today, totals.thisMonth);
      lines.push(['', `variant ${variant.toUpperCase()}: ${text}`]);
    }
  } else {
    lines.push(['plan', 'not set; to see the limits: leadctl config set plan free|pro|agency']);
  }
  lines.push(['counted', `on ${MACHINE_ONLY}`]);
  lines.push(['ledger', file]);
  io.stdout.write(lines.map(([label, text]) => `${label.padEnd(12)}${text}\n`).join(''));
}

function baseUrlText(baseUrl: string | null, count: number): string {
  if (baseUrl === SANDBOX_KEY) return 'the built-in sandbox (--sandbox)';
  if (baseUrl !== null) return baseUrl;
  return count === 0
    ? 'not set; nothing is counted for this profile'
    : `not set; counting every base URL this profile used (${count})`;
}

/** The ledger's base URLs for one profile. */
function profileKeys(file: string, profile: string): LedgerKey[] {
  return readLedger(file)
    .ledger.entries.filter((entry) => entry.profile === profile)
    .map((entry) => ({ profile, baseUrl: entry.baseUrl }));
}

/** Several base URLs' reports as one, `baseUrl: null`, for a profile with none set. */
function summed(reports: ReturnType<typeof usageReport>[], empty: ReturnType<typeof usageReport>) {
  const first = reports[0] ?? empty;
  const add = (pick: (totals: UsageTotals) => Counts) =>
    reports.reduce((sum, { totals }) => addCounts(sum, pick(totals)), zeroCounts());
  const totals: UsageTotals = {
    ...first.totals,
    today: add((t) => t.today),
    thisMonth: add((t) => t.thisMonth),
  };
  const report: Omit<UsageReport, 'baseUrl'> & { baseUrl: string | null } = {
    ...first.report,
    baseUrl: null,
    today: { date: totals.day, ...totals.today },
    month: { month: totals.month, ...totals.thisMonth },
  };
  return { report, totals };
}

function describeCounts(counts: Counts): string {
  const requests = `${formatCount(counts.requests)} request${counts.requests === 1 ? '' : 's'}`;
  const searches = `${formatCount(counts.searches)} search${counts.searches === 1 ? '' : 'es'}`;
  return `${requests}, ${searches}, ${formatCount(counts.rateLimited)} rate-limited (429)`;
}

function describeVariant(limits: VariantLimits, today: Counts, month: Counts): string {
  if (!limits.apiAccess || limits.dailyRequests === undefined) return 'no API access on this plan';
  const left = Math.max(0, limits.dailyRequests - today.requests);
  const daily = `${formatCount(limits.dailyRequests)} requests a day (${formatCount(left)} left today)`;
  if (limits.monthlyLiveSearches === undefined) return `${daily}; its search quota is not published`;
  // Searches counted include cached ones, which spend no live search: what is left is at least this.
  const searchesLeft = Math.max(0, limits.monthlyLiveSearches - month.searches);
  return `${daily}, ${formatCount(limits.monthlyLiveSearches)} live searches a month (at least ${formatCount(searchesLeft)} left)`;
}
