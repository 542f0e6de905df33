// The base URL: what users may type for --base-url, how /api/v1/<path> is put on it, and the rule that
// the key never travels over plain http:// to anything but this machine.
import { sanitizeForTerminal } from '../text/terminal-text.js';
import { hints, UsageError } from './errors.js';

const API_PREFIX = '/api/v1';

/**
 * Parses a user's base URL into the API root, always ending in `/api/v1/`. Accepts the host alone, a
 * path prefix (a reverse proxy's `/leads-api`), a trailing slash, and a base that already ends in
 * `/api/v1` (the prefix is not doubled).
 */
export function resolveApiRoot(baseUrl: string): URL {
  const trimmed = baseUrl.trim();
  const shown = redactUrl(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UsageError(
      `invalid base URL "${shown}"`,
      hints((o) => `${o.baseUrl} takes a full address such as https://api.example.com`),
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL must start with https:// or http://, not ${url.protocol}//`);
  }
  // Credentials in the URL would be sent beside the key, and printed in --verbose lines.
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      'base URL must not contain a user name or password',
      'the API key is the only credential',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`base URL must not contain a query string or fragment: "${shown}"`);
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  url.pathname = `${path}${API_PREFIX}/`;
  return url;
}

/**
 * A URL as it may be shown: a user name, password and query string hidden (`https://***@host/?…`),
 * control characters (a CR/LF in user input) escaped, so a message stays one line and tells no secret.
 */
export function redactUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || url.host === '') {
    // No server address (`https://user:pw@host:99999`, `user:pw@host`): what stands before an @ may
    // be a password, what follows a ? or # a token.
    return sanitizeForTerminal(
      text.replace(/^([a-z][\w+.-]*:\/\/)?.*@/is, '$1***@').replace(/[?#].*/s, '?…'),
    );
  }
  const hadCredentials = url.username !== '' || url.password !== '';
  const hadQuery = url.search !== '';
  const hadFragment = url.hash !== '';
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  let shown = url.href;
  if (hadCredentials) shown = shown.replace('//', '//***@');
  if (hadQuery) shown += '?…';
  if (hadFragment) shown += '#…';
  return sanitizeForTerminal(shown);
}

/** `/api/v1/<path>?<query>` under the root; undefined query values are left out. */
export function apiUrl(
  root: URL,
  path: string,
  query: Record<string, number | string | undefined> = {},
): URL {
  const url = new URL(path.replace(/^\/+/, ''), root);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

/** localhost, 127.0.0.0/8 and ::1 (also written as the IPv4-mapped ::ffff:127.x.y.z). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1; 7f00..7fff is 127.0.0.0/8.
  return /^::ffff:(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.test(host);
}

/** Throws before any request when the key would cross a network in clear text. */
export function assertKeyTransportIsSafe(root: URL): void {
  if (root.protocol === 'http:' && !isLoopbackHost(root.hostname)) {
    throw new UsageError(
      `refusing to send the API key over plain http:// to ${root.host}: anyone on the way could read it`,
      `use https://${root.host}${root.pathname.replace(/api\/v1\/$/, '')} (plain http is allowed only for localhost and 127.0.0.1)`,
    );
  }
}
