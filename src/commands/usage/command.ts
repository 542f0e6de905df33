// `leadctl usage` (./run.ts): reads the local ledger, sends nothing.
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';

export function registerUsage(program: Program, contextFor: ContextFor) {
  return withExamples(
    program
      .command('usage')
      .description('requests and searches sent from this machine today and this month, beside the plan')
      .option('--json', 'one JSON object on stdout, for scripts'),
    [
      'leadctl usage',
      'leadctl config set plan agency && leadctl usage',
      "leadctl usage --json | jq '.today.requests'",
    ],
  ).action(async (flags, self) => (await runs()).runUsage(flags, contextFor(self)));
}
