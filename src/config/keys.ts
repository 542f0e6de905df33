// The keys a profile can store, and the one place that decides what a valid value is: flags,
// environment, the config file and `config set` all go through parseConfigValue.
import { UsageError } from '../api/errors.js';
import { assertKeyTransportIsSafe, redactUrl, resolveApiRoot } from '../api/url.js';

export const CONFIG_KEYS = [
  'api-key',
  'base-url',
  'format',
  'timeout',
  'retries',
  'max-wait',
  'plan',
  'bom',
  'db-url',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The account's plan, for `leadctl usage` and the warnings before spending (src/usage/report.ts). */
export const PLAN_NAMES = ['free', 'pro', 'agency'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** What one profile holds once validated. Numbers are stored as JSON numbers. */
export interface ProfileValues {
  'api-key'?: string;
  'base-url'?: string;
  format?: OutputFormat;
  timeout?: number;
  retries?: number;
  'max-wait'?: number;
  plan?: PlanName;
  /** csv and tsv start with a UTF-8 byte-order mark unless --no-bom (stored as a JSON boolean). */
  bom?: boolean;
  /** sync and search's PostgreSQL database when --db names none; its password is shown masked. */
  'db-url'?: string;
}

/** Where a value came from, so an error can say where to fix it. */
export type ValueOrigin =
  | { kind: 'flag'; name: string }
  | { kind: 'env'; name: string }
  | { kind: 'config'; profile: string; path: string }
  | { kind: 'argument' };

/** Longer waits overflow Node's timers (about 24.8 days) and are never what anyone meant. */
export const MAX_SECONDS = 86_400;
export const MAX_RETRIES = 10;

type Check = { ok: true; value: string | number | boolean } | { ok: false; expected: string };

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function seconds(raw: string, minimumLabel: '> 0' | '>= 0'): Check {
  const expected = `expected a number of seconds ${minimumLabel}`;
  if (!DECIMAL.test(raw)) return { ok: false, expected };
  const value = Number(raw);
  if (minimumLabel === '> 0' && value === 0) return { ok: false, expected };
  if (value > MAX_SECONDS) return { ok: false, expected: `expected at most ${MAX_SECONDS} seconds` };
  return { ok: true, value };
}

function baseUrl(raw: string): Check {
  const expected = 'expected an http:// or https:// URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, expected };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, expected };
  // Credentials in the URL would end up in logs and error messages: refused (and shown redacted).
  if (url.username || url.password) {
    return { ok: false, expected: 'a user name or password in the URL is not allowed' };
  }
  // A query often carries a token.
  if (url.search || url.hash)
    return { ok: false, expected: 'expected a base URL without ?query or #fragment' };
  return { ok: true, value: raw };
}

function oneOf(choices: readonly string[]) {
  return (raw: string): Check =>
    choices.includes(raw)
      ? { ok: true, value: raw }
      : { ok: false, expected: `expected one of ${choices.join(', ')}` };
}

const CHECKS: Record<ConfigKey, (raw: string) => Check> = {
  // A Bearer token is printable ASCII without spaces; anything else breaks the header or is a paste error.
  'api-key': (raw) =>
    raw === ''
      ? { ok: false, expected: 'the key is empty' }
      : /^[\x21-\x7e]+$/.test(raw)
        ? { ok: true, value: raw }
        : { ok: false, expected: 'expected printable ASCII characters without spaces' },
  'base-url': baseUrl,
  format: oneOf(OUTPUT_FORMATS),
  timeout: (raw) => seconds(raw, '> 0'),
  retries: (raw) =>
    /^\d+$/.test(raw) && Number(raw) <= MAX_RETRIES
      ? { ok: true, value: Number(raw) }
      : { ok: false, expected: `expected a whole number from 0 to ${MAX_RETRIES}` },
  'max-wait': (raw) => seconds(raw, '>= 0'),
  plan: oneOf(PLAN_NAMES),
  bom: (raw) =>
    raw === 'true' || raw === 'false'
      ? { ok: true, value: raw === 'true' }
      : { ok: false, expected: 'expected true or false' },
  'db-url': (raw) =>
    /^postgres(ql)?:\/\//i.test(raw) && URL.canParse(raw)
      ? { ok: true, value: raw }
      : { ok: false, expected: 'expected a postgres:// or postgresql:// URL' },
};

const NUMERIC_KEYS: ReadonlySet<ConfigKey> = new Set(['timeout', 'retries', 'max-wait']);

export function isConfigKey(name: string): name is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(name);
}

/** Validates a value given as text (flag, environment, `config set`). Values are trimmed first. */
export function parseConfigValue<K extends ConfigKey>(
  key: K,
  raw: string,
  origin: ValueOrigin,
): NonNullable<ProfileValues[K]> {
  const trimmed = raw.trim();
  const check = CHECKS[key](trimmed);
  if (!check.ok) throw invalidValueError(key, trimmed, origin, check.expected);
  // `config set base-url http://example.com` would fail every command: refuse it now, in the same words.
  if (key === 'base-url' && origin.kind === 'argument') assertKeyTransportIsSafe(resolveApiRoot(trimmed));
  return check.value as NonNullable<ProfileValues[K]>;
}

/** Validates a value read from the config file, where a hand edit may have left any JSON type. */
export function parseStoredValue<K extends ConfigKey>(
  key: K,
  stored: unknown,
  origin: Extract<ValueOrigin, { kind: 'config' }>,
): NonNullable<ProfileValues[K]> {
  // Hand-written "timeout": "30" or "bom": "true" is fine: numbers and booleans as JSON or as text.
  if (
    typeof stored === 'string' ||
    (NUMERIC_KEYS.has(key) && typeof stored === 'number') ||
    (key === 'bom' && typeof stored === 'boolean')
  ) {
    return parseConfigValue(key, String(stored), origin);
  }
  const expected = NUMERIC_KEYS.has(key)
    ? 'expected a number'
    : key === 'bom'
      ? 'expected true or false'
      : 'expected a string';
  throw invalidValueError(key, JSON.stringify(stored) ?? String(stored), origin, expected);
}

/** `invalid --timeout "abc": …`, `invalid timeout "-1" in profile "default" (/x/config.json): …`. */
function invalidValueError(key: ConfigKey, shown: string, origin: ValueOrigin, expected: string) {
  // The API key is never echoed, not even a wrong one: it may be a real key pasted in the wrong place.
  // A URL with a user name, password or query is shown without them, parsed or not.
  const redacted = (key === 'base-url' || key === 'db-url') && /[@?#]/.test(shown);
  const value = key === 'api-key' ? '' : ` ${redacted ? `"${redactUrl(shown)}"` : quote(shown)}`;
  switch (origin.kind) {
    case 'flag':
    case 'env':
      return new UsageError(`invalid ${origin.name}${value}: ${expected}`);
    case 'argument':
      return new UsageError(`invalid ${key}${value}: ${expected}`);
    case 'config': {
      const where = `profile "${origin.profile}" (${origin.path})`;
      const leadctl = leadctlFor(origin.profile);
      return new UsageError(
        `invalid ${key}${value} in ${where}: ${expected}`,
        `run: ${leadctl} config set ${key} <value>  (or: ${leadctl} config unset ${key})`,
      );
    }
  }
}

/** `leadctl`, or `leadctl --profile work` for another profile: global options go before the command. */
export function leadctlFor(profile: string | undefined): string {
  return profile && profile !== 'default' ? `leadctl --profile ${profile}` : 'leadctl';
}

function quote(text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  // JSON quoting escapes control characters, so a hostile value can't drive the terminal.
  return JSON.stringify(shown);
}

export function unknownKeyError(name: string): UsageError {
  const suggestion = closestMatch(name, CONFIG_KEYS);
  const didYouMean = suggestion ? `; did you mean "${suggestion}"?` : '';
  return new UsageError(`unknown config key ${quote(name)}${didYouMean}`, `keys: ${CONFIG_KEYS.join(', ')}`);
}

// "Did you mean …?": edit distance, two neighbours swapped counting as one edit.
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) current[j] = Math.min(current[j]!, beforePrevious[j - 2]! + 1);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The nearest candidate, or undefined if none is plausible; `within`: an edit limit (no prefix match). */
export function closestMatch(input: string, candidates: readonly string[], within?: number) {
  // Compare without case and separators so that `apiKey`, `api_key` and `APIKEY` all find `api-key`.
  const normalize = (text: string) => text.toLowerCase().replace(/[-_.\s]/g, '');
  const wanted = normalize(input);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const normalized = normalize(candidate);
    // A truncated name ("retry", "max") is close whatever its edit distance.
    const isPrefix = within === undefined && wanted.length >= 3 && normalized.startsWith(wanted);
    const distance = isPrefix ? 1 : editDistance(wanted, normalized);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const tolerance = within ?? Math.max(1, Math.floor(best.candidate.length / 2));
  return best.distance <= tolerance ? best.candidate : undefined;
}
