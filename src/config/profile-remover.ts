// Removing one stored profile: a change of the profiles, written as every change is (profile-writer.ts:
// locked, atomic, 0600; a file the reader rejects is never rewritten).
import { UsageError } from '../api/errors.js';
import { updateProfiles } from './profile-writer.js';
import type { ConfigFileContents } from './store.js';

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
