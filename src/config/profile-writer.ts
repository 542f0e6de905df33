// Every write of the config file: through conf (atomic write, file mode 0600), under a lock so that
// concurrent writers (a provisioning script running 20 `config set` at once) each see the others'
// changes. Setting a profile's values and removing a profile are both a change of the profiles.
// conf is imported here only, lazily; the lock is config/file-lock.ts. The file is read and checked
// inside the lock with the same reader every command uses: a file it rejects is refused, never
// overwritten, so a hand-broken config keeps the user's keys.
import fs from 'node:fs';
import path from 'node:path';
import { ExitCode, LeadError, UsageError } from '../api/errors.js';
import { FileLockedError, withFileLock } from './file-lock.js';
import { configFile, makePrivateDir } from './paths.js';
import { type ConfigFileContents, describeFsError, type RawProfile, readConfigFile } from './store.js';

/**
 * Applies `change` to the stored profile `profile` (created when missing) and saves the file.
 * Other profiles and unknown top-level keys are written back exactly as they were read.
 * Returns the config file's path.
 */
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
 * Reads the file inside the lock, replaces its profiles with what `change` returns (it may throw to
 * refuse: nothing is written), and saves it. Returns the config file's path.
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
    return await withFileLock(filePath, (lock) => {
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
  if (error instanceof FileLockedError) {
    return new LeadError(`config file ${file} is locked by another leadctl`, {
      exitCode: ExitCode.internal,
      hint: `try again; if no other leadctl is running, remove ${file}.lock`,
    });
  }
  return new LeadError(`cannot write config file ${file}: ${describeFsError(error)}`, {
    exitCode: ExitCode.internal,
  });
}

// Removing one stored profile: a change of the profiles, written as every change is.
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
