// `leadctl api <path>`, -F/-f read as gh reads them: -F makes true, false, null and integers JSON values,
// -f always sends a string; a JSON body, or a GET's query string (./run.ts).
import { InvalidArgumentError } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';
import type { OptionsOf } from '../options.js';

export interface Field {
  key: string;
  value: string;
  typed: boolean;
}

/** commander argParser: splits at the first `=`, collecting repeats in order. */
function fieldCollector(typed: boolean) {
  return (text: string, previous: Field[] = []): Field[] => {
    const at = text.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError('expected key=value, e.g. location=Austin');
    return [...previous, { key: text.slice(0, at), value: text.slice(at + 1), typed }];
  };
}

function httpMethod(text: string): string {
  if (!/^[A-Za-z]+$/.test(text)) throw new InvalidArgumentError('expected a method such as GET or POST');
  return text.toUpperCase();
}

function apiOptions(program: Program) {
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
    .option('--paginate', 'GET every page of a paged list and print its items as one JSON array');
}

export type ApiFlags = OptionsOf<typeof apiOptions>;

export function registerApi(program: Program, contextFor: ContextFor) {
  return withExamples(
    apiOptions(program),
    [
      'leadctl api "leads?limit=5"',
      'leadctl api search -F query=plumber -F location=Austin -F radius=15',
      'leadctl api history --paginate | jq length',
    ],
    `
Fields go in a JSON body, or in the query string of a GET. Exit codes are those of every command
(see: leadctl help exit-codes); an answer that is not 2xx prints nothing on stdout.
`,
  ).action(async (path, flags, self) => (await runs()).runApi(path, flags, contextFor(self)));
}
