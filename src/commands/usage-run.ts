// `leadctl usage`: what the ledger counted for this profile and base URL today and this month, beside
// the plan's limits under both of the spec's plan tables. Reads only: no request, no lock.
import { missingSettingsError } from '../config/missing-settings.js';
import { resolveSettings } from '../config/settings.js';
import { formatCount } from '../ui/count.js';
import { ledgerKey, SANDBOX_KEY } from '../usage/ledger-key.js';
import type { Counts } from '../usage/ledger-schema.js';
import { ledgerFile } from '../usage/paths.js';
import { PLAN_LIMITS, planLabel, type VariantLimits } from '../usage/plans.js';
import { usageReport } from '../usage/report.js';
import type { CommandContext } from './context.js';
import { openUi } from './session.js';

const MACHINE_ONLY =
  'this machine only: other machines, other tools and the web app spend the same allowance';

export async function runUsage(flags: { json?: boolean }, ctx: CommandContext): Promise<void> {
  const { globals, io } = ctx;
  const ui = await openUi(ctx);
  const settings = await resolveSettings(
    { apiKey: globals.apiKey, baseUrl: globals.baseUrl, profile: globals.profile },
    io.env,
  );
  for (const warning of settings.warnings) ui.warn(warning);
  const baseUrl = globals.sandbox ? SANDBOX_KEY : settings.baseUrl;
  if (!baseUrl) throw missingSettingsError({ baseUrl: true, apiKey: false });
  const key = ledgerKey(settings.profile, baseUrl, globals.sandbox ? 'sandbox' : settings.baseUrlSource);
  const file = ledgerFile(io.env);
  const plan = settings.plan;
  const { report, totals } = usageReport({ file, key, plan }, Date.now());
  if (totals.problem) ui.warn(`usage ledger ${file} is unreadable (${totals.problem}); counting from zero`);

  if (flags.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }

  const lines: [string, string][] = [
    ['profile', key.profile],
    ['base URL', key.baseUrl === SANDBOX_KEY ? 'the built-in sandbox (--sandbox)' : key.baseUrl],
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
