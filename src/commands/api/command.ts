import { type Command, InvalidArgumentError } from 'commander';
import { fieldCollector } from '../api-fields.js';
import type { ContextFor } from '../context.js';
import { examples } from '../help-text.js';
import type { ApiFlags } from './run.js';

function httpMethod(text: string): string {
  if (!/^[A-Za-z]+$/.test(text)) throw new InvalidArgumentError('expected a method such as GET or POST');
  return text.toUpperCase();
}

export function registerApi(program: Command, contextFor: ContextFor): Command {
  return program
    .command('api')
    .description(
      'send a request to {base url}/api/v1/<path> with the key, retries and rate-limit waits; print the body as sent',
    )
    .argument('<path>', 'the path under /api/v1/, with its query, e.g. "leads?limit=5"')
    .option(
      '-X, --method <method>',
      'the HTTP method (default: GET, or POST when fields are given)',
      httpMethod,
    )
    .option(
      '-F, --field <key=value>',
      'a field; true, false, null and integers are sent as JSON values (repeatable)',
      fieldCollector(true),
      [],
    )
    .option(
      '-f, --raw-field <key=value>',
      'a field sent as a string, whatever it looks like (repeatable)',
      fieldCollector(false),
      [],
    )
    .option('--paginate', 'GET every page of a paged list and print its items as one JSON array')
    .addHelpText(
      'after',
      `
Fields go in a JSON body, or in the query string of a GET. Exit codes are those of every command
(see: leadctl help exit-codes); an answer that is not 2xx prints nothing on stdout.
${examples([
  'leadctl api "leads?limit=5"',
  'leadctl api search -F query=plumber -F location=Austin -F radius=15',
  'leadctl api history --paginate | jq length',
])}`,
    )
    .action(async (path: string, flags: ApiFlags, self: Command) => {
      const { runApi } = await import('../runs.js');
      await runApi(path, flags, contextFor(self));
    });
}
