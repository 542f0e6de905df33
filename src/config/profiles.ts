// Profiles: which one is selected, whether it exists, and its validated values.
import { UsageError } from '../api/errors.js';
import { CONFIG_KEYS, isConfigKey, type ProfileValues, parseStoredValue } from './keys.js';
import type { ConfigFileContents, RawProfile } from './store.js';

export const DEFAULT_PROFILE = 'default';

// Letters, digits and . _ - : safe in a shell, in JSON and as an object key (no "__proto__").
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string, origin: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `invalid ${origin} ${JSON.stringify(name)}: a profile name is letters, digits, ".", "_" and "-" ` +
        '(at most 64, starting with a letter or digit)',
    );
  }
  return name;
}

/** --profile, else LEADCTL_PROFILE (ignored when empty), else "default". */
export function selectedProfileName(flagValue: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flagValue !== undefined) return checkProfileName(flagValue.trim(), '--profile');
  const fromEnv = env.LEADCTL_PROFILE?.trim();
  if (fromEnv) return checkProfileName(fromEnv, 'LEADCTL_PROFILE');
  return DEFAULT_PROFILE;
}

export function profileNames(file: ConfigFileContents): string[] {
  return Object.keys(file.profiles);
}

/** The stored profile; "default" may be absent (it is then empty), any other name must exist. */
export function requireProfile(file: ConfigFileContents, name: string): RawProfile {
  if (Object.hasOwn(file.profiles, name)) return file.profiles[name]!;
  if (name === DEFAULT_PROFILE) return {};
  const names = profileNames(file);
  const known = names.length > 0 ? `; profiles: ${names.join(', ')}` : '; no profiles are stored yet';
  throw new UsageError(
    `profile ${JSON.stringify(name)} does not exist in ${file.path}${known}`,
    `create it with: leadctl --profile ${name} auth login (or: leadctl --profile ${name} config set api-key)`,
  );
}

/** One stored value, validated; undefined when the profile doesn't set it. */
export function storedValue<K extends (typeof CONFIG_KEYS)[number]>(
  profile: RawProfile,
  key: K,
  origin: { profile: string; path: string },
): NonNullable<ProfileValues[K]> | undefined {
  if (!Object.hasOwn(profile, key)) return undefined;
  return parseStoredValue(key, profile[key], { kind: 'config', ...origin });
}

/** Every known value of a profile, validated (a broken one throws, naming the file). */
export function storedValues(profile: RawProfile, origin: { profile: string; path: string }): ProfileValues {
  const values: ProfileValues = {};
  for (const key of CONFIG_KEYS) {
    const value = storedValue(profile, key, origin);
    if (value !== undefined) (values as Record<string, unknown>)[key] = value;
  }
  return values;
}

/** Keys a hand edit added that leadctl doesn't know (typos like "apikey"): ignored, but said. */
export function unknownKeyWarnings(profile: RawProfile, origin: { profile: string; path: string }): string[] {
  return Object.keys(profile)
    .filter((key) => !isConfigKey(key))
    .map(
      (key) =>
        `unknown key ${JSON.stringify(key)} in profile "${origin.profile}" (${origin.path}) is ignored; ` +
        `keys: ${CONFIG_KEYS.join(', ')}`,
    );
}
