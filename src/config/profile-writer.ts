// Writing one profile through conf (atomic write, file mode 0600). conf is imported here only, lazily.
// The file is read and checked first with the same reader every command uses: a file it rejects is
// refused, never overwritten, so a hand-broken config keeps the user's keys.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { configFile } from './paths.js';
import { describeFsError, type RawProfile, readConfigFile } from './store.js';

/**
 * Applies `change` to the stored profile `profile` (created when missing) and saves the file.
 * Other profiles and unknown top-level keys are written back exactly as they were read.
 * Returns the config file's path.
 */
export async function updateProfile(
  env: NodeJS.ProcessEnv,
  profile: string,
  change: (values: RawProfile) => void,
): Promise<string> {
  const file = readConfigFile(configFile(env));
  const dir = path.dirname(file.path);
  try {
    ensurePrivateDir(dir);
    // conf's constructor throws on a blank file (not JSON); it holds nothing, so it can go.
    if (file.exists && Object.keys(file.document).length === 0) fs.rmSync(file.path, { force: true });
  } catch (error) {
    throw new UsageError(`cannot create config folder ${dir}: ${describeFsError(error)}`);
  }

  const values: RawProfile = { ...(Object.hasOwn(file.profiles, profile) ? file.profiles[profile] : {}) };
  change(values);
  const profiles = { ...file.profiles, [profile]: values };

  const { default: Conf } = await import('conf');
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
    // The file changed under us between our check and conf's read (conf throws SyntaxError then).
    const reason = error instanceof SyntaxError ? 'it is not valid JSON' : describeFsError(error);
    throw new UsageError(`cannot write config file ${file.path}: ${reason}`);
  }
  return file.path;
}

/** conf creates missing folders with the default mode (0755 after umask): make ours private first. */
function ensurePrivateDir(dir: string): void {
  const created = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask; set it explicitly on the folder we just created.
  if (created !== undefined && process.platform !== 'win32') fs.chmodSync(dir, 0o700);
}
