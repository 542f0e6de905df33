// Removing one stored profile. Beside profile-writer.ts and written the same way (conf, atomic, 0600;
// a file the reader rejects is never rewritten); kept apart so that the writer's one job stays one.
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { configFile } from './paths.js';
import { type ConfigFileContents, describeFsError, readConfigFile } from './store.js';

/** Removes `profile` from the config file and returns the file's path; a profile that isn't there is an error. */
export async function removeProfile(env: NodeJS.ProcessEnv, profile: string): Promise<string> {
  const file = readConfigFile(configFile(env));
  // Checked again here: another run may have removed it while the user was asked.
  if (!Object.hasOwn(file.profiles, profile)) throw noSuchProfile(file, profile);
  const profiles = Object.fromEntries(Object.entries(file.profiles).filter(([name]) => name !== profile));

  const { default: Conf } = await import('conf');
  try {
    const store = new Conf<Record<string, unknown>>({
      cwd: path.dirname(file.path),
      configName: 'config',
      projectSuffix: '',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
    });
    store.set('profiles', profiles);
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'it is not valid JSON' : describeFsError(error);
    throw new UsageError(`cannot write config file ${file.path}: ${reason}`);
  }
  return file.path;
}

export function noSuchProfile(file: ConfigFileContents, profile: string): UsageError {
  const names = Object.keys(file.profiles);
  return new UsageError(
    `profile ${JSON.stringify(profile)} does not exist in ${file.path}`,
    names.length > 0 ? `profiles: ${names.join(', ')}` : 'no profiles are stored yet',
  );
}
