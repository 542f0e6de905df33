// `leadctl leads` and `leadctl history`: the same options and the same run (./run.ts), each on its
// own resource. The options' type comes from this definition; the run loads when the action runs.
import type { ResourceName } from '../../resources.js';
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';
import { addOutputOptions, addPagingOptions, integerIn, type OptionsOf } from '../options.js';

type ListResource = Extract<ResourceName, 'leads' | 'history'>;

export function registerLists(program: Program, contextFor: ContextFor) {
  registerList(program, contextFor, 'leads', "the account's saved leads, newest first", [
    'leadctl leads --all --csv -o leads.csv',
    'leadctl leads --checkpoint leads.ckpt --csv -o leads.csv --append   # nightly: only new leads',
    "leadctl leads --since 7d --json | jq -r '.[].phone'",
    'leadctl leads --limit 100 --page 2 --fields name,phone,website',
  ]);
  registerList(program, contextFor, 'history', "the account's past searches, newest first", [
    'leadctl history',
    'leadctl history --since 24h --csv',
    "leadctl history --all --json | jq -r '.[].query' | sort | uniq -c",
  ]);
}

/** The options of a list command, in the order --help shows them. */
function listOptions(program: Program, resource: ListResource) {
  const command = addPagingOptions(program.command(resource))
    .option(
      '--checkpoint <file>',
      'only what is new since the last run with <file>; the first run exports everything',
    )
    .option(
      '--max-requests <n>',
      'stop at n requests, retries included (exit 5, partial output kept)',
      integerIn(1, Number.MAX_SAFE_INTEGER),
    );
  return addOutputOptions(command);
}

export type ListFlags = OptionsOf<typeof listOptions>;

function registerList(
  program: Program,
  contextFor: ContextFor,
  resource: ListResource,
  description: string,
  examples: string[],
) {
  return withExamples(listOptions(program, resource).description(description), examples).action(
    async (flags, self) => (await runs()).runList(resource, flags, contextFor(self)),
  );
}
