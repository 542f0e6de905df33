import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { examples } from './help-text.js';

export function registerAuth(program: Command, contextFor: ContextFor): Command {
  const auth = program
    .command('auth')
    .description(
      'check the setup: which profile, base URL and key a run uses, and whether the server accepts it',
    )
    .addHelpText('after', examples(['leadctl auth status', 'leadctl --profile work auth status']));
  auth
    .command('status')
    .description('profile, base URL, where the key comes from (masked), and one request to check it')
    .addHelpText(
      'after',
      examples([
        'leadctl auth status',
        'leadctl --profile nightly auth status || echo "fix the nightly profile first"',
        'leadctl auth status --sandbox',
      ]),
    )
    .action(async (_flags: unknown, self: Command) => {
      const { runAuthStatus } = await import('./runs.js');
      await runAuthStatus(contextFor(self));
    });
  return auth;
}
