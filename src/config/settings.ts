// The settings one run uses: flag > environment > the selected profile's stored value > default.
// On every command's hot path, so it reads the file with fs and never loads conf.
import { LeadError, UsageError } from '../api/errors.js';
import { rememberSecret } from '../text/secrets.js';
import { type ConfigKey, leadctlFor, type PlanName, type ProfileValues, parseConfigValue } from './keys.js';
import { configFile } from './paths.js';
import { requireProfile, selectedProfileName, storedValue, unknownKeyWarnings } from './profiles.js';
import { readConfigFile } from './store.js';

/** The global options settings are read from (a command's `globals` will do). */
export type GlobalFlags = Partial<
  Record<'apiKey' | 'baseUrl' | 'profile' | 'timeout' | 'retries' | 'maxWait', string>
>;

export type SettingSource = 'flag' | 'env' | 'config';

export interface Settings {
  profile: string;
  apiKey?: string;
  apiKeySource?: SettingSource;
  baseUrl?: string;
  baseUrlSource?: SettingSource;
  /** Per request; default 30, > 0. */
  timeoutSec: number;
  /** Retries for 5xx and network errors; default 3, integer 0..10. */
  retries: number;
  /** Longest single wait on a 429; default 60, >= 0. */
  maxWaitSec: number;
  /** The profile's stored default output format, if any. */
  format?: string;
  /** The profile's stored plan (`config set plan`), if any: for the usage ledger's limits. */
  plan?: PlanName;
  /** The profile's `bom` (`config set bom true`): csv and tsv get a byte-order mark unless --no-bom. */
  bom?: boolean;
  /** The profile's PostgreSQL database (`config set db-url`), for sync and search when --db names none. */
  dbUrl?: string;
  configPath: string;
  /** For the caller to print on stderr (unless --quiet). */
  warnings: string[];
}

export const DEFAULT_TIMEOUT_SEC = 30;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_MAX_WAIT_SEC = 60;

interface Layer {
  flag: string;
  option: keyof GlobalFlags;
  env?: string;
}

/** Which flag (global option) and environment variable can set each key. cli.md gives retries and max-wait no variable. */
export const LAYERS = {
  'api-key': { flag: '--api-key', option: 'apiKey', env: 'LEADCTL_API_KEY' },
  'base-url': { flag: '--base-url', option: 'baseUrl', env: 'LEADCTL_BASE_URL' },
  timeout: { flag: '--timeout', option: 'timeout', env: 'LEADCTL_TIMEOUT' },
  retries: { flag: '--retries', option: 'retries' },
  'max-wait': { flag: '--max-wait', option: 'maxWait' },
} as const satisfies Partial<Record<ConfigKey, Layer>>;

export async function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<Settings> {
  const profile = selectedProfileName(flags.profile, env);
  const configPath = configFile(env);
  const file = readConfigFile(configPath);
  const stored = requireProfile(file, profile);
  const origin = { profile, path: configPath };

  function resolve<K extends keyof typeof LAYERS>(key: K) {
    const { flag, option, env: envName }: Layer = LAYERS[key];
    // An explicitly empty flag is a mistake worth reporting; an empty variable counts as unset.
    if (flags[option] !== undefined) {
      return {
        value: parseConfigValue(key, flags[option], { kind: 'flag', name: flag }),
        source: 'flag' as const,
      };
    }
    const fromEnv = envName ? env[envName] : undefined;
    if (envName && fromEnv?.trim()) {
      return {
        value: parseConfigValue(key, fromEnv, { kind: 'env', name: envName }),
        source: 'env' as const,
      };
    }
    const value: NonNullable<ProfileValues[K]> | undefined = storedValue(stored, key, origin);
    return value === undefined ? undefined : { value, source: 'config' as const };
  }

  const apiKey = resolve('api-key');
  // From here on every stderr line masks it, whatever a server echoes back.
  if (apiKey) rememberSecret(apiKey.value);
  const baseUrl = resolve('base-url');
  const format = storedValue(stored, 'format', origin);
  const plan = storedValue(stored, 'plan', origin);
  const bom = storedValue(stored, 'bom', origin);
  const dbUrl = storedValue(stored, 'db-url', origin);
  // Its password is masked in every stderr line, as the key is.
  if (dbUrl) rememberSecret(decodeURIComponent(new URL(dbUrl).password));
  return {
    profile,
    ...(apiKey ? { apiKey: apiKey.value, apiKeySource: apiKey.source } : {}),
    ...(baseUrl ? { baseUrl: baseUrl.value, baseUrlSource: baseUrl.source } : {}),
    timeoutSec: resolve('timeout')?.value ?? DEFAULT_TIMEOUT_SEC,
    retries: resolve('retries')?.value ?? DEFAULT_RETRIES,
    maxWaitSec: resolve('max-wait')?.value ?? DEFAULT_MAX_WAIT_SEC,
    ...(format ? { format } : {}),
    ...(plan ? { plan } : {}),
    ...(bom === undefined ? {} : { bom }),
    ...(dbUrl ? { dbUrl } : {}),
    configPath,
    warnings: [...file.warnings, ...unknownKeyWarnings(stored, origin)],
  };
}

/** Both missing settings said at once; exit 3 without a key, else 2. The hint names the run's profile. */
export function missingSettingsError(missing: {
  baseUrl: boolean;
  apiKey: boolean;
  profile?: string;
}): LeadError {
  const leadctl = leadctlFor(missing.profile);
  if (missing.baseUrl && missing.apiKey) {
    return new LeadError('no API base URL and no API key are configured', {
      code: 'no_api_key',
      hint: `run: ${leadctl} auth login (or ${leadctl} config set base-url <url>, then: ${leadctl} config set api-key); or try any command with --sandbox`,
    });
  }
  if (missing.baseUrl) {
    return new UsageError(
      'no API base URL is configured',
      `set one: ${leadctl} config set base-url <url> (or export LEADCTL_BASE_URL=<url>, or --base-url <url>); or try any command with --sandbox`,
      { code: 'no_base_url' },
    );
  }
  return new LeadError('no API key is configured', {
    code: 'no_api_key',
    hint: `run: ${leadctl} config set api-key (or export LEADCTL_API_KEY)`,
  });
}
