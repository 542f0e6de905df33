// leads and history take the same options and do the same thing to a different resource.
import type { Command } from 'commander';
import type { ResourceName } from '../resources.js';
import type { ContextFor } from './context.js';
import { addOutputOptions, addPagingOptions, type OutputFlags, type PagingFlags } from './shared-options.js';

export type ListFlags = OutputFlags & PagingFlags;

export function registerListCommand(
  program: Command,
  contextFor: ContextFor,
  spec: { resource: Extract<ResourceName, 'leads' | 'history'>; description: string; examples: string },
): Command {
  const command = program.command(spec.resource).description(spec.description);
  addPagingOptions(command);
  addOutputOptions(command);
  command.addHelpText('after', spec.examples).action(async (flags: ListFlags, self: Command) => {
    const { runList } = await import('./list-run.js');
    await runList(spec.resource, flags, contextFor(self));
  });
  return command;
}
