import type { Command } from 'commander';
import type { ContextFor } from '../context.js';
import { examples } from '../help-text.js';

export interface SyncFlags {
  db?: string;
}

export function registerSync(program: Command, contextFor: ContextFor): Command {
  return program
    .command('sync')
    .description(
      'mirror saved leads and search history into a SQLite database (incremental; needs Node 22.13+)',
    )
    .option('--db <file>', 'the database file (default: $XDG_DATA_HOME/leadctl/leads.db)')
    .addHelpText(
      'after',
      examples([
        'leadctl sync',
        'leadctl sync --db agency.db --quiet',
        'leadctl search plumber -l Austin --db agency.db --new-only --csv',
      ]),
    )
    .action(async (flags: SyncFlags, self: Command) => {
      // Its own chunk: the database code loads for this command (and search --db) alone.
      const { runSync } = await import('./run.js');
      await runSync(flags, contextFor(self));
    });
}
