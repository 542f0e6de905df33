// `leadctl config`: values on stdout, the rest on stderr; key masked unless --reveal, never in messages.
// The profile list is data on stdout, `git branch` style (`* ` the run's), so completion reads it too.
import { UsageError } from '../../api/errors.js';
import {
  CONFIG_KEYS,
  type ConfigKey,
  isConfigKey,
  leadctlFor,
  type ProfileValues,
  parseConfigValue,
  unknownKeyError,
} from '../../config/keys.js';
import { configFile } from '../../config/paths.js';
import {
  checkProfileName,
  noSuchProfile,
  removeProfile,
  requireProfile,
  selectedProfileName,
  storedValue,
  storedValues,
  unknownKeyWarnings,
  updateProfile,
} from '../../config/profiles.js';
import { DEFAULT_MAX_WAIT_SEC, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SEC } from '../../config/settings.js';
import { readConfigFile } from '../../config/store.js';
import type { CommandContext } from '../../session.js';
import { maskApiKey } from '../../text/secrets.js';
import { askLine, readSecret } from '../../ui/prompts.js';

const DEFAULTS: Partial<Record<ConfigKey, number>> = {
  timeout: DEFAULT_TIMEOUT_SEC,
  retries: DEFAULT_RETRIES,
  'max-wait': DEFAULT_MAX_WAIT_SEC,
};

export async function runConfigSet(
  key: string,
  value: string | undefined,
  ctx: CommandContext,
): Promise<void> {
  const configKey = knownKey(key);
  const profile = profileOf(ctx);
  // Check the file before prompting, so a broken config is reported before the user types a key.
  readConfigFile(configFile(ctx.io.env));
  let raw: string;
  if (value !== undefined) {
    raw = value;
    if (configKey === 'api-key' || configKey === 'db-url') {
      note(
        ctx,
        `leadctl: note: a ${configKey === 'api-key' ? 'key' : 'password'} given on the command line stays in your shell history; pipe it in or omit it to be prompted`,
      );
    }
  } else if (configKey === 'api-key' || configKey === 'db-url') {
    raw = await readSecret(
      ctx.io.stdin,
      configKey === 'api-key' ? 'API key: ' : 'Database URL: ',
      ctx.io.stderr,
      ctx.signal,
    );
  } else {
    throw new UsageError(`missing value for ${configKey}`, `run: leadctl config set ${configKey} <value>`);
  }
  const parsed = parseConfigValue(configKey, raw, { kind: 'argument' });
  const path = await updateProfile(ctx.io.env, profile, (values) => {
    values[configKey] = parsed;
  });
  note(ctx, `Saved ${configKey} for profile "${profile}" in ${path}`);
}

/** A key that isn't set is an error (exit 2) with a hint, so `$(leadctl config get x)` fails loudly. */
export async function runConfigGet(
  key: string,
  options: { reveal: boolean },
  ctx: CommandContext,
): Promise<void> {
  const configKey = knownKey(key);
  const { stored, origin } = readProfile(ctx);
  const value = storedValue(stored, configKey, origin);
  if (value === undefined) {
    const fallback = DEFAULTS[configKey];
    const setIt = `${leadctlFor(origin.profile)} config set ${configKey}`;
    throw new UsageError(
      `${configKey} is not set for profile "${origin.profile}"`,
      fallback === undefined
        ? `run: ${setIt}`
        : `the default is ${fallback}; to change it run: ${setIt} <value>`,
    );
  }
  ctx.io.stdout.write(`${shown(configKey, value, options.reveal)}\n`);
}

/** Removing a key that isn't set is not an error (the wanted state holds); it says so on stderr. */
export async function runConfigUnset(key: string, ctx: CommandContext): Promise<void> {
  const { stored, origin } = readProfile(ctx);
  // A key leadctl doesn't know may still be removed if a hand edit put it there ("apikey").
  if (!isConfigKey(key) && !Object.hasOwn(stored, key)) throw unknownKeyError(key);
  if (!Object.hasOwn(stored, key)) {
    note(ctx, `${key} is not set for profile "${origin.profile}"; nothing to remove`);
    return;
  }
  const path = await updateProfile(ctx.io.env, origin.profile, (values) => {
    delete values[key];
  });
  note(ctx, `Removed ${key} from profile "${origin.profile}" in ${path}`);
}

export async function runConfigList(
  options: { reveal: boolean; json?: boolean },
  ctx: CommandContext,
): Promise<void> {
  const { file, stored, origin } = readProfile(ctx);
  const values = storedValues(stored, origin);
  for (const warning of unknownKeyWarnings(stored, origin)) note(ctx, `leadctl: warning: ${warning}`);
  // Context for a person goes to stderr, as a comment, so stdout stays key=value data.
  const others = Object.keys(file.profiles).filter((name) => name !== origin.profile);
  const otherProfiles = others.length > 0 ? `; other profiles: ${others.join(', ')}` : '';
  note(ctx, `# profile "${origin.profile}" (${file.path})${otherProfiles}`);

  const entries = CONFIG_KEYS.filter((key) => values[key] !== undefined).map(
    (key) => [key, values[key] as NonNullable<ProfileValues[typeof key]>] as const,
  );
  if (options.json) {
    const object = Object.fromEntries(
      entries.map(([key, value]) => [
        key,
        key === 'api-key' || key === 'db-url' ? shown(key, value, options.reveal) : value,
      ]),
    );
    ctx.io.stdout.write(`${JSON.stringify(object, null, 2)}\n`);
    return;
  }
  for (const [key, value] of entries) ctx.io.stdout.write(`${key}=${shown(key, value, options.reveal)}\n`);
}

export async function runConfigPath(ctx: CommandContext): Promise<void> {
  profileOf(ctx);
  ctx.io.stdout.write(`${configFile(ctx.io.env)}\n`);
}

function knownKey(key: string): ConfigKey {
  if (!isConfigKey(key)) throw unknownKeyError(key);
  return key;
}

/** --profile, else LEADCTL_PROFILE, else "default"; a bad one is refused by every subcommand. */
function profileOf(ctx: CommandContext): string {
  return selectedProfileName(ctx.globals.profile, ctx.io.env);
}

/** Reads and checks the file, prints its warnings (not with --quiet) and selects the profile. */
function readProfile(ctx: CommandContext) {
  const profile = profileOf(ctx);
  const file = readConfigFile(configFile(ctx.io.env));
  for (const warning of file.warnings) note(ctx, `leadctl: warning: ${warning}`);
  const stored = requireProfile(file, profile);
  return { file, stored, origin: { profile, path: file.path } };
}

function shown(key: ConfigKey, value: string | number | boolean, reveal: boolean): string {
  if (reveal) return String(value);
  if (key === 'api-key') return maskApiKey(String(value));
  // The URL with its password masked as a key is: postgres://leadctl:…word@db/agency.
  if (key === 'db-url') {
    return String(value).replace(/^([^:]+:\/\/[^:/@]*:)([^@/]*)@/, (_, user: string, password: string) => {
      return `${user}${maskApiKey(decodeURIComponent(password))}@`;
    });
  }
  return String(value);
}

function note(ctx: CommandContext, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${line}\n`);
}

export async function runConfigProfiles(options: { json: boolean }, ctx: CommandContext): Promise<void> {
  const file = readConfigFile(configFile(ctx.io.env));
  const names = Object.keys(file.profiles);
  const current = profileOf(ctx);
  if (options.json) {
    const list = names.map((name) => ({ name, current: name === current }));
    ctx.io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
  } else {
    for (const name of names) ctx.io.stdout.write(`${name === current ? '*' : ' '} ${name}\n`);
  }
  if (names.length === 0)
    note(ctx, `no profiles are stored yet in ${file.path}; create one with: leadctl config set api-key`);
  else if (!names.includes(current)) {
    note(ctx, `this run would use profile "${current}", which is not stored (empty)`);
  }
}

export async function runConfigRemoveProfile(
  name: string,
  options: { yes: boolean },
  ctx: CommandContext,
): Promise<void> {
  profileOf(ctx);
  const profile = checkProfileName(name, 'profile name');
  const file = readConfigFile(configFile(ctx.io.env));
  if (!Object.hasOwn(file.profiles, profile)) throw noSuchProfile(file, profile);
  if (!options.yes) {
    // A script must say what it means: no question it cannot answer, no silent removal.
    if (!ctx.io.stdin.isTTY) {
      throw new UsageError(
        `refusing to remove profile "${profile}" without --yes: standard input is not a terminal`,
        `run: leadctl config remove-profile ${profile} --yes`,
      );
    }
    const keys = Object.keys(file.profiles[profile] ?? {});
    const holding = keys.length > 0 ? ` (${keys.join(', ')})` : '';
    const question = `Remove profile "${profile}"${holding} from ${file.path}? [y/N] `;
    const answer = await askLine(ctx.io, question, ctx.signal);
    if (!/^y(es)?$/i.test(answer ?? '')) {
      note(ctx, 'Nothing removed');
      return;
    }
  }
  const path = await removeProfile(ctx.io.env, profile);
  note(ctx, `Removed profile "${profile}" from ${path}`);
}
