// `leadctl mcp`: a Model Context Protocol server on stdin/stdout. stdout carries protocol messages only;
// everything for people goes to stderr. Serves until the client closes stdin (after answering what it
// asked; a cancelled call is not answered) or SIGINT/SIGTERM, then waits for calls still running so
// that their usage is in the ledger.
// initialize and tools/list are answered from the definitions alone: the session (settings, key, the
// HTTP client, --sandbox) opens at the first tool call, so a host that starts the server and never
// calls it loads none of that. A setup mistake (a bad --tools, an unknown profile, no key) does not
// stop the server: every call answers with it, where a server that exits shows only "connection closed".
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LeadError } from '../api/errors.js';
import type { CommandContext } from '../session.js';
import { createUi, formatCount, type Ui } from '../ui/ui.js';
import { AnswerTrackingTransport, Continuations } from './continuations.js';
import {
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_SEARCHES,
  DEFAULT_MAX_SEARCHES_PER_DAY,
  MCP_MAX_WAIT_SEC,
} from './defaults.js';
import { RequestBudget, type ToolDeps } from './deps.js';
import { pauseKey, RateLimitPause } from './rate-limit-pause.js';
import { SavedLeads } from './saved-leads.js';
import { SearchGate } from './search-tool.js';
import { createLeadServer, type Limits, type OpenedTools, selectTools } from './server.js';
import { SpendConfirmation } from './spend-confirmation.js';
import { type KeyMasker, keyMasker } from './tool-result.js';

/** What the server reads of `leadctl mcp`'s options (commands/mcp/command.ts defines and parses them). */
export interface McpServeOptions {
  readOnly?: boolean;
  tools?: string;
  maxRequests?: number;
  maxSearches?: number;
  maxSearchesPerDay?: number;
  /** false with --no-confirm: live searches run without the user's yes. */
  confirm?: boolean;
}

export async function runMcp(flags: McpServeOptions, ctx: CommandContext): Promise<void> {
  const limits: Limits = {
    maxRequests: flags.maxRequests ?? DEFAULT_MAX_REQUESTS,
    maxSearches: flags.maxSearches ?? DEFAULT_MAX_SEARCHES,
    maxSearchesPerDay: flags.maxSearchesPerDay ?? DEFAULT_MAX_SEARCHES_PER_DAY,
  };
  const ui = await createUi({
    stderr: ctx.io.stderr,
    quiet: Boolean(ctx.globals.quiet),
    verbose: false,
    color: false,
  });
  let tools = selectTools({ readOnly: flags.readOnly });
  let setupError: LeadError | undefined;
  try {
    tools = selectTools(flags);
  } catch (error) {
    if (!(error instanceof LeadError)) throw error;
    setupError = error;
  }
  const confirm = flags.confirm !== false;
  let opened: Promise<OpenedTools> | undefined;
  const open = () => {
    opened ??= openTools(setupError, limits, confirm, ctx, ui);
    return opened;
  };
  if (setupError) await open();
  const running = new Set<Promise<unknown>>();
  const server = createLeadServer({ tools, open, limits, confirm, running }, ctx.signal);
  // Malformed input lines and the like: a log line for whoever reads the client's server log.
  server.server.onerror = (error) => ui.warn(`mcp: ${error.message}`);
  const stdin = ctx.io.stdin as Readable;
  const transport = new AnswerTrackingTransport(
    new StdioServerTransport(stdin, ctx.io.stdout as unknown as Writable),
  );
  const inputEnded = untilEnded(stdin, ctx.signal);
  try {
    await server.connect(transport);
    ui.notice(
      `leadctl mcp: serving the Lead Data API on stdio (at most ${formatCount(limits.maxRequests)} requests and ${formatCount(limits.maxSearches)} searches this session, ${formatCount(limits.maxSearchesPerDay)} searches a day)`,
    );
    await inputEnded;
    if (!ctx.signal.aborted) await transport.allAnswered();
    // Cancelled calls are not answered, but they may still be writing their usage.
    await Promise.allSettled([...running]);
    await server.close();
  } finally {
    if (opened) await (await opened).close();
  }
}

/** The session every tool runs on; or, when leadctl is not set up, the lines every call answers. */
async function openTools(
  setupError: LeadError | undefined,
  limits: Limits,
  confirm: boolean,
  ctx: CommandContext,
  ui: Ui,
): Promise<OpenedTools> {
  if (setupError) return notReady(setupError, keyMasker(), ui);
  // Loaded here, not at start: the HTTP client, the usage recorder and the sandbox come with it.
  const { connect, rejectedKeyHint, resolveTarget } = await import('../session.js');
  const budget = new RequestBudget(limits.maxRequests);
  const globals = { ...ctx.globals, maxWait: ctx.globals.maxWait ?? String(MCP_MAX_WAIT_SEC) };
  let target: Awaited<ReturnType<typeof resolveTarget>> | undefined;
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
    searches = new SearchGate({ perSession: limits.maxSearches, perDay: limits.maxSearchesPerDay }, usage);
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
    return notReady(error, keyMasker(target?.apiKey), ui);
  }
}

function notReady(error: LeadError, mask: KeyMasker, ui: Ui): OpenedTools {
  ui.warn(`mcp: ${error.message}; serving anyway, every tool call answers with this error`);
  return {
    notReady: [
      `leadctl: ${mask(error.message)}, so no tool can reach the API.`,
      `The user has to set this up and restart the MCP server: ${mask(error.hint ?? '')}. Tell the user; calling again will not help.`,
    ],
    close: async () => {},
  };
}

/** Resolves when stdin ends (or fails) or the signal aborts. */
function untilEnded(stdin: Readable, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stdin.off('end', done);
      stdin.off('close', done);
      stdin.off('error', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    if (signal.aborted || stdin.readableEnded) return done();
    stdin.once('end', done);
    stdin.once('close', done);
    stdin.once('error', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
