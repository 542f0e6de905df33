// `leadctl mcp`: a Model Context Protocol server on stdio for AI assistants. The definition imports
// only commander; the SDK loads when the action runs, so no other command pays for it.
import type { Command } from 'commander';
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
      '\nTools: search_businesses, list_leads, list_search_history; none writes files or config.\n' +
        'Rate limits are waited on for at most --max-wait seconds (default here: 10), then reported\n' +
        'to the assistant as an error with the reset time.\n' +
        examples([
          'leadctl mcp --sandbox',
          'leadctl mcp --profile work --max-requests 200',
          'leadctl mcp --max-wait 30 --verbose 2>> ~/leadctl-mcp.log',
        ]),
    )
    .action(async (flags: { maxRequests?: number }, self: Command) => {
      const { runMcp } = await import('../mcp/serve.js');
      await runMcp(flags, contextFor(self));
    });
}
