import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { examples } from './help-text.js';
import { registerListCommand } from './list/command.js';

export function registerHistory(program: Command, contextFor: ContextFor): Command {
  return registerListCommand(program, contextFor, {
    resource: 'history',
    description: "the account's past searches, newest first",
    examples: examples([
      'leadctl history',
      'leadctl history --since 24h --csv',
      "leadctl history --all --json | jq -r '.[].query' | sort | uniq -c",
    ]),
  });
}
