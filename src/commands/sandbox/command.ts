// `leadctl sandbox` (./run.ts): the local API server loads when the action runs.
import { Option } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { withExamples } from '../help/command.js';
import { integerIn, nonBlank, probability } from '../options.js';

const count = integerIn(0, 10_000_000);

export function registerSandbox(program: Program, contextFor: ContextFor) {
  return withExamples(
    program
      .command('sandbox')
      .description(
        'serve a local Lead Data API with realistic data, for trying scripts without spending quota',
      )
      .option('--port <n>', 'port to listen on; 0 picks a free one', integerIn(0, 65535), 0)
      .option('--host <address>', 'address to listen on', nonBlank, '127.0.0.1')
      .addOption(
        new Option('--plan <plan>', 'plan of the key printed as LEADCTL_API_KEY')
          .choices(['free', 'pro', 'agency'])
          .default('agency'),
      )
      .addOption(
        new Option('--variant <v>', "which of the spec's plan tables applies")
          .choices(['a', 'b'])
          .default('b'),
      )
      .option('--leads <n>', 'saved leads to start with (default: 300)', count)
      .option('--history <n>', 'past searches to start with (default: 40)', count)
      .option(
        '--latency <ms>',
        'time each answer takes, in milliseconds (the sandbox works within it)',
        integerIn(0, 600_000),
      )
      .option('--fail-rate <p>', 'share of requests answered 500, 0..1', probability)
      .option('--reset-rate <p>', 'share of connections dropped without an answer, 0..1', probability)
      .option('--seed <n>', 'seed of the generated data (default: 1)', integerIn(0, 2 ** 31 - 1))
      .option('--daily-limit <n>', "requests a day per key, instead of the plan's", count)
      .option('--live-search-limit <n>', "live searches a month, instead of the plan's", count)
      .option(
        '--hostile-data',
        'names with formulas, escape sequences and newlines, to test what you build on it',
      ),
    [
      'leadctl sandbox --port 8080',
      'leadctl sandbox --port 8080 > sandbox.env &   # then: set -a; . ./sandbox.env; set +a; leadctl leads',
      'leadctl sandbox --variant a --latency 50 --fail-rate 0.1 --daily-limit 20',
    ],
  ).action(async ({ latency, ...flags }, self) => {
    const { runSandbox } = await import('./run.js');
    const { io, signal } = contextFor(self);
    // A flag not given is undefined, which the sandbox reads as its default.
    await runSandbox({ ...flags, latencyMs: latency }, { stdout: io.stdout, stderr: io.stderr, signal });
  });
}
