// `leadctl sync` (./run.ts).
import type { ContextFor, Program } from '../../session.js';
import { examples } from '../help/command.js';
import type { OptionsOf } from '../options.js';

function syncOptions(program: Program) {
  return program
    .command('sync')
    .description(
      'mirror saved leads and search history into a SQLite database (incremental; needs Node 22.13+)',
    )
    .option('--db <file>', 'the database file (default: $XDG_DATA_HOME/leadctl/leads.db)');
}

/** The options of `leadctl sync`, as commander parses them. */
export type SyncFlags = OptionsOf<typeof syncOptions>;

export function registerSync(program: Program, contextFor: ContextFor) {
  return syncOptions(program)
    .addHelpText(
      'after',
      examples([
        'leadctl sync',
        'leadctl sync --db agency.db --quiet',
        'leadctl search plumber -l Austin --db agency.db --new-only --csv',
      ]),
    )
    .action(async (flags, self) => {
      // Its own chunk: the database code loads for this command (and search --db) alone.
      const { runSync } = await import('./run.js');
      await runSync(flags, contextFor(self));
    });
}
