// Below the commands because the type every run receives (session.ts: GlobalOptions) is inferred from it.
import { Command } from '@commander-js/extra-typings';
import { VERSION } from './version.js';

/** The program with cli.md's "Global options" table: every command's help lists them too. */
export function createProgram() {
  return new Command('leadctl')
    .description(
      'Command-line client for the Lead Data API v1: saved leads, search history and lead searches.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .option(
      '--api-key <key>',
      'API key (prefer `leadctl config set api-key`: flags show in the process list)',
    )
    .option('--base-url <url>', 'API base address; /api/v1/... is appended')
    .option('--profile <name>', 'stored profile to use (default: "default")')
    .option('--sandbox', 'run against the built-in sandbox on 127.0.0.1 (no key, no network)')
    .option('--timeout <s>', 'seconds per request (default: 30)')
    .option('--retries <n>', 'retries for 5xx and network errors (default: 3)')
    .option('--max-wait <s>', 'longest single wait on a rate limit before giving up (default: 60)')
    .option('-q, --quiet', 'no progress and no notices on stderr')
    .option('--verbose', 'one stderr line per HTTP attempt; stack traces on errors')
    .option('--no-color', 'no colour on stderr or in tables')
    .option('--no-pager', 'no pager for long output on a terminal (also: LEADCTL_PAGER=cat)');
}
