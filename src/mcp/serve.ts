// `leadctl mcp`: a Model Context Protocol server on stdin/stdout. stdout carries protocol messages only;
// everything for people goes to stderr. Serves until the client closes stdin (after answering what it
// asked; a cancelled call is not answered) or SIGINT/SIGTERM, then waits for calls still running so
// that their usage is in the ledger.
// initialize and tools/list are answered from the definitions alone, without the MCP SDK (stdio.ts): the
// SDK loads at the first other message, and the session (settings, key, the HTTP client, --sandbox)
// opens at the first tool call, so a host that starts the server and never calls it loads none of that. A setup mistake (a bad --tools, an unknown profile, no key) does not
// stop the server: every call answers with it, where a server that exits shows only "connection closed".
// This is the entry of dist/mcp-server.js, a bundle of its own (scripts/build.mjs): the MCP SDK brings
// classic zod, which built into the CLI's chunks would share zod's core with the client's zod/mini and
// load ~600 KB more into every request-making command.
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LeadError } from '../api/errors.js';
import type { CommandContext } from '../session.js';
import { createUi, formatCount } from '../ui/ui.js';
import { DEFAULT_MAX_REQUESTS, DEFAULT_MAX_SEARCHES, DEFAULT_MAX_SEARCHES_PER_DAY } from './defaults.js';
import { earlyAnswers, type Limits, type OpenedTools, selectTools } from './server.js';
import { StdioTransport } from './stdio.js';

/** The flags of `leadctl mcp` this server reads (nothing below the commands imports their types). */
export type McpServeFlags = Partial<Limits> & { readOnly?: boolean; tools?: string; confirm?: boolean };

export async function runMcp(flags: McpServeFlags, ctx: CommandContext): Promise<void> {
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
    ui.warn(`mcp: ${error.message}; serving anyway, every tool call answers with this error`);
  }
  const confirm = flags.confirm !== false;
  let opened: Promise<OpenedTools> | undefined;
  const open = () => {
    opened ??= import('./deps.js').then((tools) => tools.openTools(setupError, limits, confirm, ctx, ui));
    return opened;
  };
  const running = new Set<Promise<unknown>>();
  const setup = { tools, open, limits, confirm, running, stop: ctx.signal };
  // Malformed input lines and the like: a log line for whoever reads the client's server log.
  const warn = (error: Error) => ui.warn(`mcp: ${error.message}`);
  let server: Server | undefined;
  const stdin = ctx.io.stdin as Readable;
  const transport = new StdioTransport(
    stdin,
    ctx.io.stdout as unknown as Writable,
    earlyAnswers(setup),
    async () => {
      const protocol = await import('./protocol.js');
      server = protocol.createLeadServer(setup);
      server.onerror = warn;
      transport.onerror = undefined;
      await server.connect(transport);
      return protocol.deserializeMessage;
    },
  );
  transport.onerror = warn;
  // Resolves when stdin ends (or fails) or the signal aborts.
  const inputEnded = finished(stdin, { writable: false, signal: ctx.signal }).catch(() => {});
  try {
    await transport.start();
    ui.notice(
      `leadctl mcp: serving the Lead Data API on stdio (at most ${formatCount(limits.maxRequests)} requests and ${formatCount(limits.maxSearches)} searches this session, ${formatCount(limits.maxSearchesPerDay)} searches a day)`,
    );
    await inputEnded;
    if (!ctx.signal.aborted) await transport.allAnswered();
    // Cancelled calls are not answered, but they may still be writing their usage.
    await Promise.allSettled([...running]);
    await (server ?? transport).close();
  } finally {
    if (opened) await (await opened).close();
  }
}
