// `leadctl sync` (./run.ts).
import type { ContextFor, Program } from '../../session.js';
import { withExamples } from '../help/command.js';
import { nonBlank, type OptionsOf } from '../options.js';

function syncOptions(program: Program) {
  return program
    .command('sync')
    .description(
      'mirror saved leads and search history into SQLite (Node 22.13+) or PostgreSQL, incrementally',
    )
    .option(
      '--db <file|url>',
      'a SQLite file or a postgres:// URL (default: the db-url config key, else $XDG_DATA_HOME/leadctl/leads.db)',
    )
    .option('--account <name>', "the rows' account in the database (default: the profile's name)", nonBlank)
    .option(
      '--full',
      'read every page: finds deleted leads and changed ratings anywhere, rebuilds what is missing',
    );
}

export type SyncFlags = OptionsOf<typeof syncOptions>;

export function registerSync(program: Program, contextFor: ContextFor) {
  return withExamples(syncOptions(program), [
    'leadctl sync',
    'leadctl --profile client-a sync --db postgres://leadctl@db.agency.example/leads --quiet',
    'leadctl sync --full',
    'leadctl search plumber -l Austin --new-only --csv',
  ]).action(
    // Its own chunk: the database code loads for this command (and search --db) alone.
    async (flags, self) => (await import('./run.js')).runSync(flags, contextFor(self)),
  );
}
