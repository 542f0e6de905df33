// `leadctl mcp`: one session (settings, key, --sandbox) behind a Model Context Protocol server on
// stdin/stdout. stdout carries protocol messages only; everything for people goes to stderr. Serves
// until the client closes stdin (after answering what it asked) or SIGINT/SIGTERM.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CommandContext } from '../commands/context.js';
import { openSession } from '../commands/session.js';
import { formatCount } from '../ui/count.js';
import { AnswerTrackingTransport } from './answer-tracking.js';
import { RequestBudget } from './budget.js';
import { createLeadServer } from './server.js';
import { keyMasker, safeText } from './tool-result.js';

/** An assistant waits on the tool call: rate limits are waited on briefly unless --max-wait says otherwise. */
export const MCP_MAX_WAIT_SEC = 10;
export const DEFAULT_MAX_REQUESTS = 50;

export interface McpFlags {
  maxRequests?: number;
}

export async function runMcp(flags: McpFlags, ctx: CommandContext): Promise<void> {
  const budget = new RequestBudget(flags.maxRequests ?? DEFAULT_MAX_REQUESTS);
  const globals = { ...ctx.globals, maxWait: ctx.globals.maxWait ?? String(MCP_MAX_WAIT_SEC) };
  const session = await openSession({ ...ctx, globals }, { beforeAttempt: budget.beforeAttempt });
  const { client, ui } = session;
  const mask = keyMasker(session.settings.apiKey);
  try {
    const server = createLeadServer({ client, budget, mask, usage: session.usage }, ctx.signal);
    // Malformed input lines and the like: a log line for whoever reads the client's server log.
    server.server.onerror = (error) => ui.warn(`mcp: ${safeText(error.message, mask)}`);
    const stdin = ctx.io.stdin as Readable;
    const transport = new AnswerTrackingTransport(
      new StdioServerTransport(stdin, ctx.io.stdout as unknown as Writable),
    );
    const inputEnded = untilEnded(stdin, ctx.signal);
    await server.connect(transport);
    ui.notice(
      `leadctl mcp: serving the Lead Data API on stdio (at most ${formatCount(budget.max)} requests this session)`,
    );
    await inputEnded;
    if (!ctx.signal.aborted) await transport.allAnswered();
    await server.close();
  } finally {
    await session.close();
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
