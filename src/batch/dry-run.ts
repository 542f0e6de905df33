// `search --input FILE --dry-run`: the cost before it is spent (docs/batch.md, "Dry run").
import { UsageError } from '../api/errors.js';
import type { PlanName } from '../config/keys.js';
import { resolveSettings } from '../config/settings.js';
import { resolveOutputPath } from '../output/destination.js';
import { createItemRenderer, type OutputFlags } from '../output/item-sink.js';
import { type CommandContext, openUi } from '../session.js';
import { formatCount, safeForStderr } from '../ui/ui.js';
import { ledgerFile, ledgerKey, SANDBOX_KEY } from '../usage/ledger.js';
import { PLAN_LIMITS, planLabel, type UsageTotals, usageTotals } from '../usage/report.js';
import { BATCH_RESOURCE } from './items.js';
import type { BatchPlan } from './load-input.js';
import {
  type BatchState,
  checkSameBatch,
  checkStateAgreement,
  loadState,
  outputShape,
  statePath,
} from './state.js';

/** What the dry run reads of `search`'s flags (defined in commands/search): output, shape and resume. */
type DryRunFlags = OutputFlags &
  Parameters<typeof outputShape>[1] & { resume?: boolean; resendUnknown?: boolean };

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export async function runBatchDryRun(
  plan: BatchPlan,
  input: string,
  flags: DryRunFlags,
  ctx: CommandContext,
): Promise<void> {
  const { globals, io } = ctx;
  const settings = await resolveSettings(
    { apiKey: globals.apiKey, baseUrl: globals.baseUrl, profile: globals.profile },
    io.env,
  );
  const total = plan.searches;
  const source = input === '-' ? 'standard input' : input;
  const lines = [
    'Dry run: nothing is sent.',
    `${source}: ${plural(total, 'search', 'searches')}, ${formatCount(plan.duplicates)} skipped as duplicate.`,
  ];
  const stopped = await stoppedBatch(plan, flags, ctx, settings.format);
  let toSend = total;
  if (stopped) {
    const waiting = stopped.unknown.filter((search) => search.index >= stopped.done).length;
    const resent = flags.resendUnknown ? waiting : 0;
    const kept = stopped.answers.length;
    const skipped = stopped.done + waiting - resent + kept;
    const resumeSends = total - skipped;
    const notes = [
      waiting > 0 &&
        `${plural(waiting, 'search', 'searches')} sent without an answer ${flags.resendUnknown ? 'sent again, as --resend-unknown asks' : 'not sent again'}`,
      kept > 0 && `${plural(kept, 'answer', 'answers')} kept in it written without searching`,
    ].filter(Boolean);
    const unknownNote = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    lines.push(
      `${statePath(flags.output as string)}: a --resume skips ${formatCount(skipped)} of them${unknownNote} and sends ${formatCount(resumeSends)}.`,
    );
    if (flags.resume) toSend = resumeSends;
    else lines.push('Without --resume this -o file is refused while its .state file is there.');
  }
  lines.push(
    `It would send ${plural(toSend, 'search', 'searches')}: ${plural(toSend, 'request', 'requests')} at least (retries add more), each of which may be a live search.`,
  );
  lines.push(...ledgerLines(settings, io.env, toSend, Boolean(globals.sandbox)));
  io.stderr.write(`${lines.map((line) => safeForStderr(line)).join('\n')}\n`);
}

// The stopped batch of -o FILE, checked as --resume checks it (exit 2 where a resume would be refused);
// undefined when there is none. Without --resume a state file is only reported.
async function stoppedBatch(
  plan: BatchPlan,
  flags: DryRunFlags,
  ctx: CommandContext,
  storedFormat: string | undefined,
): Promise<BatchState | undefined> {
  if (flags.output === undefined) return undefined;
  const where = await resolveOutputPath(flags.output);
  if (where.kind !== 'file') {
    if (flags.resume)
      throw new UsageError('--resume needs -o <file>: the regular file the stopped batch was writing');
    return undefined;
  }
  const file = statePath(flags.output);
  const stopped = await loadState(file);
  if (!stopped) {
    if (flags.resume) throw new UsageError(`nothing to resume: ${file} does not exist`);
    return undefined;
  }
  checkStateAgreement(file, stopped);
  if (!flags.resume) return stopped;
  // What the format choice has to say (an extension that disagrees) is said as a real run says it.
  const { format } = await createItemRenderer({
    ctx,
    messages: await openUi(ctx),
    flags,
    resource: BATCH_RESOURCE,
    storedFormat,
  });
  checkSameBatch(stopped, plan, outputShape(format, flags));
  return stopped;
}

/** What the ledger counted for this profile and server, and what the plan leaves of it. */
function ledgerLines(
  settings: { profile: string; baseUrl?: string; baseUrlSource?: string; plan?: PlanName },
  env: NodeJS.ProcessEnv,
  searches: number,
  sandbox: boolean,
): string[] {
  const baseUrl = sandbox ? SANDBOX_KEY : settings.baseUrl;
  if (!baseUrl) return ['Usage ledger: no base URL is set, so there is no ledger entry to read.'];
  const key = ledgerKey(settings.profile, baseUrl, sandbox ? 'sandbox' : settings.baseUrlSource);
  const file = ledgerFile(env);
  const totals = usageTotals(file, key, new Map(), Date.now());
  const where = key.baseUrl === SANDBOX_KEY ? 'the built-in sandbox' : key.baseUrl;
  const lines = [
    `Usage ledger (this machine, profile ${key.profile}, ${where}): ${plural(totals.today.requests, 'request', 'requests')} today, ${plural(totals.thisMonth.searches, 'search', 'searches')} this month.`,
  ];
  if (totals.problem) lines.push(`The ledger ${file} is unreadable (${totals.problem}): counted from zero.`);
  if (!settings.plan) {
    lines.push('Plan: not set, so nothing to compare with (leadctl config set plan free|pro|agency).');
    return lines;
  }
  lines.push(...planLines(settings.plan, totals, searches));
  return lines;
}

function planLines(plan: PlanName, totals: UsageTotals, searches: number): string[] {
  const lines: string[] = [];
  for (const variant of ['a', 'b'] as const) {
    const limits = PLAN_LIMITS[plan][variant];
    const label = `${planLabel(plan)} plan, variant ${variant.toUpperCase()}`;
    if (!limits.apiAccess || limits.dailyRequests === undefined) {
      lines.push(`${label}: no API access.`);
      continue;
    }
    const requestsLeft = Math.max(0, limits.dailyRequests - totals.today.requests);
    const parts = [
      `${formatCount(requestsLeft)} of ${formatCount(limits.dailyRequests)} daily requests left${searches > requestsLeft ? ' (this batch needs more)' : ''}`,
    ];
    if (limits.monthlyLiveSearches === undefined) parts.push('monthly live searches not published');
    else {
      // The ledger's searches include cached ones, which spend no live search: at least this is left.
      const searchesLeft = Math.max(0, limits.monthlyLiveSearches - totals.thisMonth.searches);
      parts.push(
        `at least ${formatCount(searchesLeft)} of ${formatCount(limits.monthlyLiveSearches)} monthly live searches left${searches > searchesLeft ? ' (this batch may need more)' : ''}`,
      );
    }
    lines.push(`${label}: ${parts.join(', ')}.`);
  }
  return lines;
}
