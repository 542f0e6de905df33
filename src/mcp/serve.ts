// `leadctl mcp`: one session (settings, key, --sandbox) behind a Model Context Protocol server on
// stdin/stdout. stdout carries protocol messages only; everything for people goes to stderr. Serves
// until the client closes stdin (after answering what it asked; a cancelled call is not answered)
// or SIGINT/SIGTERM, then waits for calls still running so that their usage is in the ledger.
// Without a base URL or key the server still starts, and every call says what the user must set up:
// a host shows that to the model, where a server that exits shows only "connection closed".
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LeadError } from '../api/errors.js';
import type { CommandContext } from '../session.js';
import { connect, rejectedKeyHint, resolveTarget, type Session } from '../session.js';
import { formatCount } from '../ui/ui.js';
import { AnswerTrackingTransport, Continuations } from './continuations.js';
import {
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_SEARCHES,
  DEFAULT_MAX_SEARCHES_PER_DAY,
  MCP_MAX_WAIT_SEC,
} from './defaults.js';
import type { ToolDeps } from './deps.js';
import { RequestBudget } from './deps.js';
import { RateLimitPause } from './rate-limit-pause.js';
import { SavedLeads } from './saved-leads.js';
import { SearchGate } from './search-tool.js';
import { createLeadServer, selectTools } from './server.js';
import { keyMasker, safeText } from './tool-result.js';

/** What the server reads of `leadctl mcp`'s options (commands/mcp/command.ts defines and parses them). */
export interface McpServeOptions {
  readOnly?: boolean;
  tools?: string;
  maxRequests?: number;
  maxSearches?: number;
  maxSearchesPerDay?: number;
}

export async function runMcp(flags: McpServeOptions, ctx: CommandContext): Promise<void> {
  const tools = selectTools(flags);
  const limits = {
    maxRequests: flags.maxRequests ?? DEFAULT_MAX_REQUESTS,
    maxSearches: flags.maxSearches ?? DEFAULT_MAX_SEARCHES,
    maxSearchesPerDay: flags.maxSearchesPerDay ?? DEFAULT_MAX_SEARCHES_PER_DAY,
  };
  const budget = new RequestBudget(limits.maxRequests);
  const globals = { ...ctx.globals, maxWait: ctx.globals.maxWait ?? String(MCP_MAX_WAIT_SEC) };
  const target = await resolveTarget({ ...ctx, globals });
  const { ui } = target;
  const mask = keyMasker(target.apiKey);
  let searches: SearchGate | undefined;
  let session: Session | undefined;
  let notReady: string[] = [];
  try {
    session = connect(target, {
      beforeAttempt: budget.beforeAttempt,
      onAttempt: (event) => searches?.onAttempt(event),
    });
  } catch (error) {
    if (!(error instanceof LeadError)) throw error;
    notReady = [
      `leadctl: ${mask(error.message)}, so no tool can reach the API.`,
      `The user has to set this up and restart the MCP server: ${mask(error.hint ?? '')}. Tell the user; calling again will not help.`,
    ];
    ui.warn(`mcp: ${mask(error.message)}; serving anyway, every tool call answers with this error`);
  }
  let deps: ToolDeps | undefined;
  if (session) {
    searches = new SearchGate(
      { perSession: limits.maxSearches, perDay: limits.maxSearchesPerDay },
      session.usage,
    );
    deps = {
      client: session.client,
      budget,
      searches,
      pause: new RateLimitPause({
        file: path.join(path.dirname(session.usage.file), 'mcp-rate-limit.json'),
        key: `${session.usage.key.profile} ${session.usage.key.baseUrl}`,
      }),
      usage: session.usage,
      continuations: new Continuations(),
      savedLeads: new SavedLeads(session.client),
      mask,
      failure: { mask, rejectedKeyHint: rejectedKeyHint(target.apiKeySource, target.settings.profile) },
    };
  }
  const running = new Set<Promise<unknown>>();
  try {
    const server = createLeadServer({ tools, deps, notReady, limits, running }, ctx.signal);
    // Malformed input lines and the like: a log line for whoever reads the client's server log.
    server.server.onerror = (error) => ui.warn(`mcp: ${safeText(error.message, mask)}`);
    const stdin = ctx.io.stdin as Readable;
    const transport = new AnswerTrackingTransport(
      new StdioServerTransport(stdin, ctx.io.stdout as unknown as Writable),
    );
    const inputEnded = untilEnded(stdin, ctx.signal);
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
    if (session) await session.close();
    else await target.close();
  }
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
