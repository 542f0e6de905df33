// Profiles: which one is selected, whether it exists, its validated values, and every write of them.
import fs from 'node:fs';
import path from 'node:path';
import { ExitCode, LeadError, UsageError } from '../api/errors.js';
import { LockedError, withLock } from '../lock.js';
import { CONFIG_KEYS, isConfigKey, type ProfileValues, parseStoredValue } from './keys.js';
import { configFile, makePrivateDir } from './paths.js';
import { type ConfigFileContents, describeFsError, type RawProfile, readConfigFile } from './store.js';

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

/** The stored profile; "default" may be absent (it is then empty), any other name must exist. */
export function requireProfile(file: ConfigFileContents, name: string): RawProfile {
  if (Object.hasOwn(file.profiles, name)) return file.profiles[name]!;
  if (name === DEFAULT_PROFILE) return {};
  const names = Object.keys(file.profiles);
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

/** Applies `change` to the stored profile `profile` (created when missing); returns the file's path. */
export function updateProfile(
  env: NodeJS.ProcessEnv,
  profile: string,
  change: (values: RawProfile) => void,
): Promise<string> {
  return updateProfiles(env, (file) => {
    const values: RawProfile = { ...(Object.hasOwn(file.profiles, profile) ? file.profiles[profile] : {}) };
    change(values);
    return { ...file.profiles, [profile]: values };
  });
}

/**
 * Every config write: conf (atomic, 0600) under a lock, so 20 `config set` at once each see the others'. Read
 * and checked inside the lock, so a file the reader rejects is never overwritten; other top-level keys stay.
 */
export async function updateProfiles(
  env: NodeJS.ProcessEnv,
  change: (file: ConfigFileContents) => Record<string, RawProfile>,
): Promise<string> {
  const filePath = configFile(env);
  // Check before locking: a broken file is reported at once, not after waiting for a lock.
  readConfigFile(filePath);
  const dir = path.dirname(filePath);
  makePrivateDir(dir);
  const { default: Conf } = await import('conf');
  try {
    return await withLock(`${filePath}.lock`, {}, (lock) => {
      const file = readConfigFile(filePath);
      // conf's constructor throws on a blank file (not JSON); it holds nothing, so it can go.
      if (file.exists && Object.keys(file.document).length === 0) fs.rmSync(file.path, { force: true });
      const profiles = change(file);
      lock.check();
      try {
        const store = new Conf<Record<string, unknown>>({
          cwd: dir,
          configName: 'config',
          projectSuffix: '',
          configFileMode: 0o600,
          // Profile names may contain dots: keys are literal, not paths.
          accessPropertiesByDotNotation: false,
        });
        store.set('profiles', profiles);
      } catch (error) {
        // The file changed under us despite the lock (a hand edit): conf throws SyntaxError then.
        const reason = error instanceof SyntaxError ? 'it is not valid JSON' : describeFsError(error);
        throw new UsageError(`cannot write config file ${file.path}: ${reason}`);
      }
      return file.path;
    });
  } catch (error) {
    // The file's own problems and the change's refusals are LeadErrors; the rest is the lock's.
    throw error instanceof LeadError ? error : lockError(filePath, error);
  }
}

function lockError(file: string, error: unknown): LeadError {
  if (error instanceof LockedError) {
    return new LeadError(`config file ${file} is locked by another leadctl`, {
      exitCode: ExitCode.internal,
      hint: `try again; if no other leadctl is running, remove ${file}.lock`,
    });
  }
  return new LeadError(`cannot write config file ${file}: ${describeFsError(error)}`, {
    exitCode: ExitCode.internal,
  });
}

/** Removes `profile` from the config file and returns the file's path; a profile that isn't there is an error. */
export function removeProfile(env: NodeJS.ProcessEnv, profile: string): Promise<string> {
  return updateProfiles(env, (file) => {
    // Checked inside the lock: another run may have removed it while the user was asked.
    if (!Object.hasOwn(file.profiles, profile)) throw noSuchProfile(file, profile);
    return Object.fromEntries(Object.entries(file.profiles).filter(([name]) => name !== profile));
  });
}

export function noSuchProfile(file: ConfigFileContents, profile: string): UsageError {
  const names = Object.keys(file.profiles);
  return new UsageError(
    `profile ${JSON.stringify(profile)} does not exist in ${file.path}`,
    names.length > 0 ? `profiles: ${names.join(', ')}` : 'no profiles are stored yet',
  );
}
