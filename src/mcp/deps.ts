// What every tool runs on, loaded at the first tool call: the session and each call's guard. Each session
// has its own key mask and rejected-key hint, never the process's: a host may run several sessions.
import path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { LeadClient } from '../api/client.js';
import { RequestBudget } from '../api/client-options.js';
import { ExitCode, LeadError } from '../api/errors.js';
import { type CommandContext, connect, rejectedKeyHint, resolveTarget, type Target } from '../session.js';
import { issuePath } from '../text/schema-issues.js';
import { formatCount, type Ui } from '../ui/ui.js';
import type { UsageRecorder } from '../usage/recorder.js';
import { Continuations } from './continuations.js';
import { CALL_DEADLINE_SEC, MCP_MAX_WAIT_SEC } from './defaults.js';
import { CallDeadlineError, type FailureContext } from './failure-text.js';
import { runListTool, runUsageTool } from './list-tools.js';
import { pauseKey, RateLimitPause } from './rate-limit-pause.js';
import { runFindSavedTool, SavedLeads } from './saved-leads.js';
import { TOOL_SCHEMAS } from './schemas.js';
import { runSearchTool, SearchGate } from './search-tool.js';
import type { Limits, OpenedTools, ServerSetup, ToolName } from './server.js';
import { SpendConfirmation } from './spend-confirmation.js';
import { errorResult, type KeyMasker, keyMasker, refusalResult, type ToolResult } from './tool-result.js';

export interface ToolDeps {
  client: LeadClient;
  budget: SessionBudget;
  searches: SearchGate;
  pause: RateLimitPause;
  usage: UsageRecorder;
  continuations: Continuations;
  savedLeads: SavedLeads;
  confirmation: SpendConfirmation;
  mask: KeyMasker;
  failure: FailureContext;
}

export interface ToolCall {
  signal: AbortSignal;
  progress: ReportProgress;
  /** Asks the user a yes-or-no question through the host (MCP elicitation), where the host can. */
  ask?: (message: string) => Promise<'accept' | 'decline' | 'cancel'>;
}

// --max-requests: a model in a loop can spend a day's quota in a minute. This adds words for an assistant.
export class SessionBudget extends RequestBudget {
  constructor(max: number) {
    // Exit 5 in the CLI's table: like a rate limit, it means "out of quota".
    super(
      max,
      () =>
        new LeadError(
          `this session's request budget is spent: it has sent the ${formatCount(max)} requests the user allowed it (--max-requests ${max}), so nothing more is sent`,
          {
            exitCode: ExitCode.rateLimited,
            hint: 'Tell the user; only they can allow more, by restarting the leadctl MCP server (with a higher --max-requests if needed).',
          },
        ),
    );
  }

  /** For a tool's summary: how much is left, so that the model can plan its next calls. */
  describe(): string {
    return `Requests left in this session: ${formatCount(this.remaining)} of ${formatCount(this.max)}.`;
  }
}

// Only for a request with a progress token (a client may reset its timeout); unsendable ones are dropped.
export type ReportProgress = (progress: number, total: number | undefined, message: string) => void;

interface ProgressExtra {
  _meta?: { progressToken?: string | number } | undefined;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

function progressReporter(extra: ProgressExtra): ReportProgress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let last = -1;
  return (progress, total, message) => {
    // The spec wants progress to increase with every notification.
    if (progress <= last) return;
    last = progress;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => {});
  };
}

/** Each tool's run, and whether it sends requests (a rate-limit pause refuses those at once). */
const RUNS: Record<
  ToolName,
  { sends: boolean; run: (args: never, deps: ToolDeps, call: ToolCall) => Promise<ToolResult> }
> = {
  search_businesses: { sends: true, run: runSearchTool },
  find_saved_leads: { sends: true, run: runFindSavedTool },
  list_leads: { sends: true, run: (args, deps, call) => runListTool('leads', args, deps, call) },
  list_search_history: { sends: true, run: (args, deps, call) => runListTool('history', args, deps, call) },
  usage: { sends: false, run: async (_args, deps) => runUsageTool(deps) },
};

type CallExtra = ProgressExtra & { signal: AbortSignal };

// Every failure an isError result; stops with the session, the host's cancellation or the deadline.
export async function callTool(
  name: string,
  args: unknown,
  extra: CallExtra,
  setup: ServerSetup,
  server: Server,
): Promise<ToolResult> {
  if (!setup.tools.has(name as ToolName)) {
    return refusalResult([
      `leadctl: this server has no tool "${name}"; it serves ${[...setup.tools].join(', ')}.`,
      'Call one of those; the user chose them when starting the server.',
    ]);
  }
  const parsed = TOOL_SCHEMAS[name as ToolName].input.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path.length === 0 ? issue.message : `${issue.message} at ${issuePath(issue.path)}`,
    );
    return refusalResult([
      `leadctl: invalid arguments for ${name}: ${problems.join('; ')}`,
      'Check them against the tool description and call again; nothing was sent.',
    ]);
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new CallDeadlineError()), CALL_DEADLINE_SEC * 1000);
  const running = (async (): Promise<ToolResult> => {
    const opened = await setup.open();
    if ('notReady' in opened) return refusalResult(opened.notReady);
    const { deps } = opened;
    const { sends, run } = RUNS[name as ToolName];
    const paused = sends ? deps.pause.refusal(deps.searches.rulesText()) : undefined;
    if (paused) return refusalResult(paused);
    const signal = AbortSignal.any([setup.stop, extra.signal, deadline.signal]);
    const ask = async (message: string) =>
      (await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } }, { signal }))
        .action;
    const call: ToolCall = {
      signal,
      progress: progressReporter(extra),
      ...(server.getClientCapabilities()?.elicitation?.form ? { ask } : {}),
    };
    try {
      return await run(parsed.data as never, deps, call);
    } catch (error) {
      deps.pause.note(error);
      return errorResult(error, deps.failure);
    } finally {
      await deps.usage.flush();
    }
  })();
  setup.running.add(running);
  try {
    return await running;
  } finally {
    clearTimeout(timer);
    setup.running.delete(running);
  }
}

export async function openTools(
  setupError: LeadError | undefined,
  limits: Limits,
  confirm: boolean,
  ctx: CommandContext,
  ui: Ui,
): Promise<OpenedTools> {
  // Said on stderr at start (serve.ts).
  if (setupError) return notReady(setupError, keyMasker());
  const budget = new SessionBudget(limits.maxRequests);
  const globals = { ...ctx.globals, maxWait: ctx.globals.maxWait ?? String(MCP_MAX_WAIT_SEC) };
  let target: Target | undefined;
  try {
    target = await resolveTarget({ ...ctx, globals });
    let searches: SearchGate | undefined;
    let flushed = Promise.resolve();
    // The ledger is written after every attempt, in order, not at the end of a call: a host that
    // kills the server (SIGKILL) loses no count of what the API answered.
    const flush = () => {
      flushed = flushed.then(() => session.usage.flush());
      return flushed;
    };
    const session = connect(target, {
      beforeAttempt: budget.beforeAttempt,
      onAttempt: (event) => {
        searches?.onAttempt(event);
        void flush();
      },
    });
    const usage = { ...session.usage, flush };
    searches = new SearchGate(limits, usage);
    const mask = keyMasker(target.apiKey);
    const deps: ToolDeps = {
      client: session.client,
      budget,
      searches,
      pause: new RateLimitPause({
        file: path.join(path.dirname(usage.file), 'mcp-rate-limit.json'),
        key: pauseKey(usage.key, String(target.apiKey)),
      }),
      usage,
      continuations: new Continuations(),
      savedLeads: new SavedLeads(session.client),
      confirmation: new SpendConfirmation(confirm),
      mask,
      failure: { mask, rejectedKeyHint: rejectedKeyHint(target.apiKeySource, target.settings.profile) },
    };
    return { deps, close: () => session.close() };
  } catch (error) {
    if (!(error instanceof LeadError)) throw error;
    await target?.close();
    ui.warn(`mcp: ${error.message}; serving anyway, every tool call answers with this error`);
    return notReady(error, keyMasker(target?.apiKey));
  }
}

function notReady(error: LeadError, mask: KeyMasker): OpenedTools {
  return {
    notReady: [
      `leadctl: ${mask(error.message)}, so no tool can reach the API.`,
      `The user has to set this up and restart the MCP server: ${mask(error.hint ?? '')}. Tell the user; calling again will not help.`,
    ],
    close: async () => {},
  };
}
