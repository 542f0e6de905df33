// What `leadctl config set|get|unset|list|path|profiles|remove-profile` do. Values go to stdout,
// everything else to stderr; the API key is masked unless --reveal and never appears in a message.
// The profile list is data on stdout, `git branch` style (`* ` marks the profile this run would use),
// so shell completion reads it too.
import { InterruptedError, UsageError } from '../../api/errors.js';
import {
  CONFIG_KEYS,
  type ConfigKey,
  isConfigKey,
  type ProfileValues,
  parseConfigValue,
  unknownKeyError,
} from '../../config/keys.js';
import { configFile } from '../../config/paths.js';
import {
  checkProfileName,
  DEFAULT_PROFILE,
  noSuchProfile,
  profileNames,
  removeProfile,
  requireProfile,
  storedValue,
  storedValues,
  unknownKeyWarnings,
  updateProfile,
} from '../../config/profiles.js';
import { readSecret } from '../../config/read-secret.js';
import { DEFAULT_MAX_WAIT_SEC, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SEC } from '../../config/settings.js';
import { readConfigFile } from '../../config/store.js';
import { maskApiKey } from '../../text/secrets.js';

export { CONFIG_KEYS } from '../../config/keys.js';

export interface ConfigIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The profile to act on (--profile, else LEADCTL_PROFILE, else "default"). */
  profile: string;
  quiet: boolean;
  /** Aborted by SIGINT/SIGTERM: ends the key prompt. */
  signal?: AbortSignal;
}

const DEFAULTS: Partial<Record<ConfigKey, number>> = {
  timeout: DEFAULT_TIMEOUT_SEC,
  retries: DEFAULT_RETRIES,
  'max-wait': DEFAULT_MAX_WAIT_SEC,
};

export async function runConfigSet(key: string, value: string | undefined, io: ConfigIo): Promise<void> {
  const configKey = knownKey(key);
  const profile = profileOf(io);
  // Check the file before prompting, so a broken config is reported before the user types a key.
  readConfigFile(configFile(io.env));
  let raw: string;
  if (value !== undefined) {
    raw = value;
    if (configKey === 'api-key' || configKey === 'db-url') {
      note(
        io,
        `leadctl: note: a ${configKey === 'api-key' ? 'key' : 'password'} given on the command line stays in your shell history; pipe it in or omit it to be prompted`,
      );
    }
  } else if (configKey === 'api-key' || configKey === 'db-url') {
    raw = await readSecret(
      io.stdin,
      configKey === 'api-key' ? 'API key: ' : 'Database URL: ',
      io.stderr,
      io.signal,
    );
  } else {
    throw new UsageError(`missing value for ${configKey}`, `run: leadctl config set ${configKey} <value>`);
  }
  const parsed = parseConfigValue(configKey, raw, { kind: 'argument' });
  const path = await updateProfile(io.env, profile, (values) => {
    values[configKey] = parsed;
  });
  note(io, `Saved ${configKey} for profile "${profile}" in ${path}`);
}

/** A key that isn't set is an error (exit 2) with a hint, so `$(leadctl config get x)` fails loudly. */
export async function runConfigGet(key: string, options: { reveal: boolean }, io: ConfigIo): Promise<void> {
  const configKey = knownKey(key);
  const { stored, origin } = readProfile(io);
  const value = storedValue(stored, configKey, origin);
  if (value === undefined) {
    const fallback = DEFAULTS[configKey];
    const setIt = `leadctl${profileFlag(origin.profile)} config set ${configKey}`;
    throw new UsageError(
      `${configKey} is not set for profile "${origin.profile}"`,
      fallback === undefined
        ? `run: ${setIt}`
        : `the default is ${fallback}; to change it run: ${setIt} <value>`,
    );
  }
  io.stdout.write(`${shown(configKey, value, options.reveal)}\n`);
}

/** Removing a key that isn't set is not an error (the wanted state holds); it says so on stderr. */
export async function runConfigUnset(key: string, io: ConfigIo): Promise<void> {
  const { stored, origin } = readProfile(io);
  // A key leadctl doesn't know may still be removed if a hand edit put it there ("apikey").
  if (!isConfigKey(key) && !Object.hasOwn(stored, key)) throw unknownKeyError(key);
  if (!Object.hasOwn(stored, key)) {
    note(io, `${key} is not set for profile "${origin.profile}"; nothing to remove`);
    return;
  }
  const path = await updateProfile(io.env, origin.profile, (values) => {
    delete values[key];
  });
  note(io, `Removed ${key} from profile "${origin.profile}" in ${path}`);
}

export async function runConfigList(
  options: { reveal: boolean; json?: boolean },
  io: ConfigIo,
): Promise<void> {
  const { file, stored, origin } = readProfile(io);
  const values = storedValues(stored, origin);
  for (const warning of unknownKeyWarnings(stored, origin)) note(io, `leadctl: warning: ${warning}`);
  // Context for a person goes to stderr, as a comment, so stdout stays key=value data.
  const others = profileNames(file).filter((name) => name !== origin.profile);
  const otherProfiles = others.length > 0 ? `; other profiles: ${others.join(', ')}` : '';
  note(io, `# profile "${origin.profile}" (${file.path})${otherProfiles}`);

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
    io.stdout.write(`${JSON.stringify(object, null, 2)}\n`);
    return;
  }
  for (const [key, value] of entries) io.stdout.write(`${key}=${shown(key, value, options.reveal)}\n`);
}

export async function runConfigPath(io: ConfigIo): Promise<void> {
  io.stdout.write(`${configFile(io.env)}\n`);
}

function knownKey(key: string): ConfigKey {
  if (!isConfigKey(key)) throw unknownKeyError(key);
  return key;
}

function profileOf(io: ConfigIo): string {
  // An empty LEADCTL_PROFILE means "not set", as everywhere else.
  return checkProfileName(io.profile.trim() || DEFAULT_PROFILE, '--profile');
}

/** Reads and checks the file, prints its warnings (not with --quiet) and selects the profile. */
function readProfile(io: ConfigIo) {
  const profile = profileOf(io);
  const file = readConfigFile(configFile(io.env));
  for (const warning of file.warnings) note(io, `leadctl: warning: ${warning}`);
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

function profileFlag(profile: string): string {
  return profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`;
}

function note(io: ConfigIo, line: string): void {
  if (!io.quiet) io.stderr.write(`${line}\n`);
}

export async function runConfigProfiles(options: { json: boolean }, io: ConfigIo): Promise<void> {
  const file = readConfigFile(configFile(io.env));
  const names = profileNames(file);
  const current = io.profile;
  if (options.json) {
    const list = names.map((name) => ({ name, current: name === current }));
    io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
  } else {
    for (const name of names) io.stdout.write(`${name === current ? '*' : ' '} ${name}\n`);
  }
  if (names.length === 0)
    note(io, `no profiles are stored yet in ${file.path}; create one with: leadctl config set api-key`);
  else if (!names.includes(current)) {
    note(io, `this run would use profile "${current}", which is not stored (empty)`);
  }
}

export async function runConfigRemoveProfile(
  name: string,
  options: { yes: boolean },
  io: ConfigIo,
): Promise<void> {
  const profile = checkProfileName(name, 'profile name');
  const file = readConfigFile(configFile(io.env));
  if (!Object.hasOwn(file.profiles, profile)) throw noSuchProfile(file, profile);
  if (!options.yes) {
    // A script must say what it means: no question it cannot answer, no silent removal.
    if (!io.stdin.isTTY) {
      throw new UsageError(
        `refusing to remove profile "${profile}" without --yes: standard input is not a terminal`,
        `run: leadctl config remove-profile ${profile} --yes`,
      );
    }
    const keys = Object.keys(file.profiles[profile] ?? {});
    const holding = keys.length > 0 ? ` (${keys.join(', ')})` : '';
    if (!(await confirm(io, `Remove profile "${profile}"${holding} from ${file.path}? [y/N] `))) {
      note(io, 'Nothing removed');
      return;
    }
  }
  const path = await removeProfile(io.env, profile);
  note(io, `Removed profile "${profile}" from ${path}`);
}

async function confirm(io: ConfigIo, question: string): Promise<boolean> {
  // Loaded only to ask: this module is part of every request-making command's run chunk (runs.ts).
  const { createInterface } = await import('node:readline/promises');
  const reader = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const closed = new Promise<never>((_resolve, reject) =>
      reader.once('SIGINT', () => reject(new InterruptedError())),
    );
    const answer = await Promise.race([reader.question(question), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}
