// `leadctl mcp`: a Model Context Protocol server on stdio for AI assistants. The definition imports
// only commander; the server is a bundle of its own (src/mcp/entry.ts says why), loaded when the
// action runs, so no other command pays for the SDK.
import type { Command } from 'commander';
import { LeadError } from '../api/errors.js';
import type { runMcpCommand } from '../mcp/entry.js';
import type { ContextFor } from './context.js';
import { examples } from './help-text.js';
import { integerIn } from './parsers.js';

export function registerMcp(program: Command, contextFor: ContextFor): Command {
  return program
    .command('mcp')
    .description('serve the API to AI assistants: a Model Context Protocol server on stdin/stdout')
    .option(
      '--max-requests <n>',
      'most API requests this session may send, retries included (default: 50)',
      integerIn(1, 1_000_000),
    )
    .addHelpText(
      'after',
      '\nTools: search_businesses, list_leads, list_search_history, usage; none writes files or config.\n' +
        'Rate limits are waited on for at most --max-wait seconds (default here: 10), then reported\n' +
        'to the assistant as an error with the reset time.\n' +
        examples([
          'leadctl mcp --sandbox',
          'leadctl mcp --profile work --max-requests 200',
          'leadctl mcp --max-wait 30 --verbose 2>> ~/leadctl-mcp.log',
        ]),
    )
    .action(async (flags: { maxRequests?: number }, self: Command) => {
      // Beside dist/cli.js, which this is bundled into (the build checks it); a computed path, so not
      // bundled here.
      const server: { runMcpCommand: typeof runMcpCommand } = await import(
        String(new URL('./mcp-server.js', import.meta.url))
      );
      const failure = await server.runMcpCommand(flags, contextFor(self));
      if (failure) throw new LeadError(failure.message, { exitCode: failure.exitCode, hint: failure.hint });
    });
}
