// `leadctl config set|get|unset|list|profiles|remove-profile|path` (./run.ts).
import { Argument } from '@commander-js/extra-typings';
import { CONFIG_KEYS } from '../../config/keys.js';
import type { ContextFor, Program } from '../../session.js';
import { runs, withExamples } from '../help/command.js';

const keyArgument = () => new Argument('<key>', CONFIG_KEYS.join(', ')).choices(CONFIG_KEYS);

export function registerConfig(program: Program, contextFor: ContextFor) {
  const config = withExamples(
    program.command('config').description('read and change stored settings (per profile, in config.json)'),
    [
      'echo "$LEADCTL_API_KEY" | leadctl config set api-key',
      'leadctl config set base-url https://api.example.com',
      'leadctl --profile work config list',
    ],
  );
  const subcommand = (name: string, description: string, lines: string[]) =>
    withExamples(config.command(name).description(description), lines);

  subcommand(
    'set',
    'store a value; with no value, api-key and db-url are read from stdin or a hidden prompt',
    [
      'leadctl config set api-key                      # prompts without echo',
      'echo "$LEADCTL_API_KEY" | leadctl config set api-key',
      'leadctl --profile work config set format csv',
    ],
  )
    .addArgument(keyArgument())
    .argument('[value]', 'the value (omit for api-key and db-url: read from stdin or prompted)')
    .action(async (key, value, _flags, self) => (await runs()).runConfigSet(key, value, contextFor(self)));
  subcommand('get', 'print a stored value (api-key masked unless --reveal)', [
    'leadctl config get base-url',
    'leadctl config get api-key --reveal | pbcopy',
  ])
    .addArgument(keyArgument())
    .option('--reveal', 'print the api-key in full')
    .action(async (key, flags, self) =>
      (await runs()).runConfigGet(key, { reveal: Boolean(flags.reveal) }, contextFor(self)),
    );
  subcommand('unset', 'remove a stored value', [
    'leadctl config unset format',
    'leadctl --profile old config unset api-key',
  ])
    // No choices here: a misspelt key left by a hand edit must be removable too.
    .argument('<key>', CONFIG_KEYS.join(', '))
    .action(async (key, _flags, self) => (await runs()).runConfigUnset(key, contextFor(self)));
  subcommand('list', "print the profile's stored values as key=value (api-key masked unless --reveal)", [
    'leadctl config list',
    'leadctl config list --json | jq -r \'."base-url"\'',
  ])
    .option('--reveal', 'print the api-key in full')
    .option('--json', 'print one JSON object')
    .action(async (flags, self) =>
      (await runs()).runConfigList(
        { reveal: Boolean(flags.reveal), json: Boolean(flags.json) },
        contextFor(self),
      ),
    );
  subcommand('profiles', 'list the stored profiles; * marks the one this run uses', [
    'leadctl config profiles',
    'leadctl config profiles --json',
  ])
    .option('--json', 'print a JSON array of {name, current}')
    .action(async (flags, self) =>
      (await runs()).runConfigProfiles({ json: Boolean(flags.json) }, contextFor(self)),
    );
  subcommand('remove-profile', 'remove a stored profile and everything in it (asks first on a terminal)', [
    'leadctl config remove-profile old',
    'leadctl config remove-profile ci-temp --yes',
  ])
    .argument('<profile>', 'the profile to remove')
    .option('-y, --yes', 'do not ask (needed when standard input is not a terminal)')
    .action(async (profile, flags, self) =>
      (await runs()).runConfigRemoveProfile(profile, { yes: Boolean(flags.yes) }, contextFor(self)),
    );
  subcommand('path', 'print the path of the config file', [
    'leadctl config path',
    'chmod 600 "$(leadctl config path)"',
  ]).action(async (_flags, self) => (await runs()).runConfigPath(contextFor(self)));
  return config;
}
