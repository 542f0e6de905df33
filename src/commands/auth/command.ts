// `leadctl auth login|logout|status` (./run.ts).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';
import type { NoOptions, OptionsOf } from '../options.js';

export function registerAuth(program: Program, contextFor: ContextFor) {
  const auth = withExamples(
    program
      .command('auth')
      .description('log in (store a checked base URL and key), log out, or check which ones a run uses'),
    ['leadctl auth login', 'leadctl auth status', 'leadctl --profile work auth status'],
  );
  withExamples(
    loginOptions(auth),
    [
      'leadctl auth login                                  # asks for the base URL and key',
      'echo "$LEADCTL_API_KEY" | leadctl auth login --with-token --base-url https://api.example.com',
      'leadctl --profile work auth login',
    ],
    '\nThe base URL comes from --base-url, LEADCTL_BASE_URL or the profile, else it is asked for.\n',
  ).action(async (flags, self) => (await runs()).runAuthLogin(flags, contextFor(self)));
  const subcommand = (name: string, description: string, lines: string[]) =>
    withExamples(auth.command(name).description(description), lines);
  subcommand('logout', "remove the profile's stored API key (the base URL and other settings stay)", [
    'leadctl auth logout',
    'leadctl --profile work auth logout',
  ]).action(async (_flags, self) => (await runs()).runAuthLogout(contextFor(self)));
  subcommand('status', 'profile, base URL, where the key comes from (masked), and one request to check it', [
    'leadctl auth status',
    'leadctl --profile nightly auth status || echo "fix the nightly profile first"',
    'leadctl auth status --sandbox',
  ]).action(async (_flags, self) => (await runs()).runAuthStatus(contextFor(self)));
  return auth;
}

function loginOptions<Globals extends OptionValues>(auth: Command<[], NoOptions, Globals>) {
  return auth
    .command('login')
    .description(
      'store a base URL and API key in the profile, after one request checks them; asks on a terminal',
    )
    .option('--with-token', 'read the API key from standard input (for scripts)');
}

export type LoginFlags = OptionsOf<typeof loginOptions<NoOptions>>;
