import type { Command } from 'commander';
import type { ContextFor } from '../context.js';
import { examples } from '../help-text.js';

export function registerUsage(program: Command, contextFor: ContextFor): Command {
  return program
    .command('usage')
    .description('requests and searches sent from this machine today and this month, beside the plan')
    .option('--json', 'one JSON object on stdout, for scripts')
    .addHelpText(
      'after',
      examples([
        'leadctl usage',
        'leadctl config set plan agency && leadctl usage',
        "leadctl usage --json | jq '.today.requests'",
      ]),
    )
    .action(async (flags: { json?: boolean }, self: Command) => {
      const { runUsage } = await import('../runs.js');
      await runUsage(flags, contextFor(self));
    });
}
