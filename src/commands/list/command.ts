// leads and history take the same options and do the same thing to a different resource.
import type { Command } from 'commander';
import type { ResourceName } from '../../resources.js';
import type { ContextFor } from '../context.js';
import type { ListFlags } from '../list-flags.js';
import { addOutputOptions, addPagingOptions } from '../options.js';
import { integerIn } from '../parsers.js';

export function registerListCommand(
  program: Command,
  contextFor: ContextFor,
  spec: { resource: Extract<ResourceName, 'leads' | 'history'>; description: string; examples: string },
): Command {
  const command = program.command(spec.resource).description(spec.description);
  addPagingOptions(command);
  command
    .option(
      '--checkpoint <file>',
      'only what is new since the last run with <file>; the first run exports everything',
    )
    .option(
      '--max-requests <n>',
      'stop at n requests, retries included (exit 5, partial output kept)',
      integerIn(1, Number.MAX_SAFE_INTEGER),
    );
  addOutputOptions(command);
  command.option('--append', 'csv, tsv, ndjson: add rows to the -o file (header only when new)');
  command.addHelpText('after', spec.examples).action(async (flags: ListFlags, self: Command) => {
    const { runList } = await import('../runs.js');
    await runList(spec.resource, flags, contextFor(self));
  });
  return command;
}
