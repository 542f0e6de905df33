// What the CLI says when a run lacks a base URL, a key, or both: worded here once, for every command
// (auth status included), and both reported in one run so that the user fixes them together. The
// commands name the profile the run used: following the hint must fix this run, not `default`.
import { ExitCode, LeadError, UsageError } from '../api/errors.js';

export interface MissingSettings {
  baseUrl: boolean;
  apiKey: boolean;
  /** The profile the run used (`--profile`, LEADCTL_PROFILE, or `default`). */
  profile?: string;
}

/** For a run that lacks one or both. A missing base URL is a usage error (exit 2), a lone missing key exit 3. */
export function missingSettingsError(missing: MissingSettings): LeadError {
  // Global options go before the command, as the README and `auth status` write them.
  const leadctl =
    missing.profile && missing.profile !== 'default' ? `leadctl --profile ${missing.profile}` : 'leadctl';
  const setBaseUrl = `${leadctl} config set base-url <url> (or export LEADCTL_BASE_URL=<url>, or --base-url <url>)`;
  const setApiKey = `${leadctl} config set api-key (or export LEADCTL_API_KEY)`;
  if (missing.baseUrl && missing.apiKey) {
    return new UsageError(
      'no API base URL and no API key are configured',
      `run: ${leadctl} auth login (or ${leadctl} config set base-url <url>, then: ${leadctl} config set api-key); or try any command with --sandbox`,
    );
  }
  if (missing.baseUrl) {
    return new UsageError(
      'no API base URL is configured',
      `set one: ${setBaseUrl}; or try any command with --sandbox`,
    );
  }
  return new LeadError('no API key is configured', {
    exitCode: ExitCode.auth,
    hint: `run: ${setApiKey}`,
  });
}
