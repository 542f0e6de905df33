// `leadctl mcp` on stdin/stdout (stdout for protocol messages only), until the client closes stdin (exit 0)
// or a signal (exit 128 + its number, as every command); then it waits for running calls so that their
// usage is in the ledger. A setup mistake (a bad --tools, no key) is every call's answer, not an exit
// (which a host shows as "connection closed"). The entry of dist/mcp-server.js, a bundle of its own:
// docs/performance.md, "Start-up".
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
  ctx.signal.throwIfAborted();
}
