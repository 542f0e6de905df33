// `leadctl search`: one search (./run.ts), or a batch from --input (./batch.ts), loaded when the action runs.
import { Option } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';
import { addOutputOptions, byteSize, integerIn, nonBlank, type OptionsOf, timeSpan } from '../options.js';

/** The options of `leadctl search`, in the order --help shows them. */
function searchOptions(program: Program) {
  const command = program
    .command('search')
    .description('run a new lead search: businesses by keyword and location')
    .argument('[query...]', 'business type or keyword (several words are joined with spaces)')
    .option('-l, --location <place>', 'city, state, or zip code (required)', nonBlank)
    .option(
      '-r, --radius <miles>',
      "search radius in miles, 1..50 (default: the server's, 10)",
      integerIn(1, 50),
    )
    .option(
      '--input <file>',
      'batch: CSV (, ; or tab), .xlsx or JSON lines with query, location[, radius]; - reads stdin',
    )
    .option(
      '--columns <map>',
      "batch: the input's own column names, e.g. query=Trade,location=City,radius=Miles",
    )
    .option('--ignore-extra', "batch: skip the input's other columns (named on stderr) instead of refusing")
    .option(
      '--max-input-rows <n>',
      'batch: most rows the input may have (default: 50,000)',
      integerIn(1, Number.MAX_SAFE_INTEGER),
    )
    .option('--max-input-bytes <size>', 'batch, --exclude: largest input, e.g. 200M (default: 64M)', byteSize)
    .option('--unique', 'batch: keep only the first result per place_id')
    .option(
      '--max-requests <n>',
      'batch: most requests the batch may spend',
      integerIn(1, Number.MAX_SAFE_INTEGER),
    )
    .option('--resume', 'batch: continue a stopped batch from <file>.state (needs -o)')
    .option(
      '--resend-unknown',
      'batch, with --resume: send again the searches the stopped run sent without an answer',
    )
    .option(
      '--dry-run',
      'batch: check the input and show what it would send and what quota is left; send nothing',
    )
    .option('--concurrency <n>', 'batch: searches in flight, 1..16 (default: 2)', integerIn(1, 16))
    .option(
      '--db <file|url>',
      'keep every result in this database (a SQLite file or a postgres:// URL), with query, location and time',
    )
    .option('--new-only', "write only places the database has never seen (--db, else sync's database)")
    .option(
      '--cache <span>',
      'answer from the database if the same search ran within <span> (30m, 24h, 7d)',
      timeSpan,
    )
    .option(
      '--exclude <file>',
      'drop businesses you already have: a CSV or a leadctl database (docs/sync.md)',
    )
    .option(
      '--account <name>',
      "the account whose database rows these are (default: the profile's name)",
      nonBlank,
    )
    .addOption(
      new Option(
        '--seen-by <who>',
        "--new-only, --cache, --exclude: the run's account's rows, or all accounts'",
      ).choices(['account', 'all']),
    );
  return addOutputOptions(command);
}

export type SearchFlags = OptionsOf<typeof searchOptions>;

export function registerSearch(program: Program, contextFor: ContextFor) {
  return withExamples(searchOptions(program), [
    'leadctl search "plumber" --location Austin',
    "leadctl search plumber -l Austin --json | jq -r '.[].phone'",
    'leadctl search --input searches.csv --unique --csv -o results.csv',
    'leadctl search --input searches.csv --dry-run',
    'leadctl search --input hubspot.xlsx --columns query=Industry,location=City --ignore-extra --csv',
    'leadctl search plumber -l Austin --new-only --cache 24h --exclude crm.csv --csv',
  ]).action(async (words, flags, self) => (await runs()).runSearch(words, flags, contextFor(self)));
}
