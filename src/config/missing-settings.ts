// What the CLI says when a run lacks a base URL, a key, or both: worded here once, for every command
// (auth status included), and both reported in one run so that the user fixes them together.
import { ExitCode, LeadError, UsageError } from '../api/errors.js';

export interface MissingSettings {
  baseUrl: boolean;
  apiKey: boolean;
}

const SET_BASE_URL =
  'leadctl config set base-url <url> (or export LEADCTL_BASE_URL=<url>, or --base-url <url>)';
const SET_API_KEY = 'leadctl config set api-key (or export LEADCTL_API_KEY)';

/** For a run that lacks one or both. A missing base URL is a usage error (exit 2), a lone missing key exit 3. */
export function missingSettingsError(missing: MissingSettings): LeadError {
  if (missing.baseUrl && missing.apiKey) {
    return new UsageError(
      'no API base URL and no API key are configured',
      `run: ${SET_BASE_URL}, then: ${SET_API_KEY}; or try any command with --sandbox`,
    );
  }
  if (missing.baseUrl) {
    return new UsageError(
      'no API base URL is configured',
      `set one: ${SET_BASE_URL}; or try any command with --sandbox`,
    );
  }
  return new LeadError('no API key is configured', {
    exitCode: ExitCode.auth,
    hint: `run: ${SET_API_KEY}`,
  });
}
