// The entry of dist/mcp-server.js, a bundle of its own (scripts/build.mjs): the MCP SDK brings
// classic zod, which built into the CLI's chunks would share zod's core with the client's zod/mini and
// load ~600 KB more into every request-making command. Its own copies of our classes come with it, so
// a failure crosses back to the CLI as plain data, already masked, in the CLI's words.

import { LeadError } from '../api/errors.js';
import type { CommandContext } from '../session.js';
import { maskSecrets } from '../text/secrets.js';
import type { McpServeOptions } from './serve.js';
import { runMcp } from './serve.js';

export interface McpFailure {
  message: string;
  hint?: string;
  exitCode: number;
}

export async function runMcpCommand(
  flags: McpServeOptions,
  ctx: CommandContext,
): Promise<McpFailure | undefined> {
  try {
    await runMcp(flags, ctx);
    return undefined;
  } catch (error) {
    if (!(error instanceof LeadError)) throw error;
    // The CLI's own mask: this failure is printed by the CLI, on its stderr, before or after the session.
    return {
      message: maskSecrets(error.message),
      ...(error.hint ? { hint: maskSecrets(error.hint) } : {}),
      exitCode: error.exitCode,
    };
  }
}
