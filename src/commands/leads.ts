import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { examples } from './help-text.js';
import { registerListCommand } from './list/command.js';

export function registerLeads(program: Command, contextFor: ContextFor): Command {
  return registerListCommand(program, contextFor, {
    resource: 'leads',
    description: "the account's saved leads, newest first",
    examples: examples([
      'leadctl leads --all --csv -o leads.csv',
      'leadctl leads --checkpoint leads.ckpt --csv -o leads.csv --append   # nightly: only new leads',
      "leadctl leads --since 7d --json | jq -r '.[].phone'",
      'leadctl leads --limit 100 --page 2 --fields name,phone,website',
    ]),
  });
}
