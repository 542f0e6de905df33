// `leadctl api`: where a raw path goes (always under the API root, so the key never leaves it), and
// --paginate over any page-numbered list, yielding each page's items as the text the server sent.
import { oneLine } from '../text/terminal-text.js';
import type { LeadClient } from './client.js';
import { ProtocolError, UsageError } from './errors.js';
import { arrayItemTexts } from './exact-json-parser.js';
import { isPlainObject } from './http-errors.js';
import { redactUrl } from './url.js';

/** `leads?limit=5`, `/leads`, `api/v1/leads` all name `{root}leads`; full URLs and `..` are refused. */
export function rawApiUrl(apiRoot: string, path: string, query: readonly [string, string][] = []): URL {
  const trimmed = path.trim();
  // User input goes through the same sanitizer as server text: a CR/LF in a path stays one line.
  const shown = oneLine(trimmed);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed)) {
    throw new UsageError(
      `"${redactUrl(trimmed)}" is a full URL; give a path under the API`,
      'for example: leadctl api "leads?limit=5" (the base URL comes from --base-url or the profile)',
    );
  }
  const relative = trimmed.replace(/^\/+/, '').replace(/^api\/v1(\/|$)/i, '');
  const url = new URL(relative, apiRoot);
  if (!url.href.startsWith(apiRoot)) {
    throw new UsageError(
      `"${shown}" points outside ${apiRoot}`,
      'leadctl api only sends requests under /api/v1/',
    );
  }
  for (const [name, value] of query) url.searchParams.append(name, value);
  return url;
}

/** What `LeadClient.request()` takes: a method, and a URL under the API root, so the key never leaves it. */
export function checkRawRequest(root: URL, method: string, url: URL): void {
  if (typeof method !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method)) {
    throw new UsageError(
      `method must be an HTTP method such as GET or POST (got ${oneLine(String(method), 40)})`,
    );
  }
  if (!(url instanceof URL)) {
    throw new UsageError(
      `url must be a URL object, such as new URL('leads?limit=5', client.apiRoot) (got a ${typeof url})`,
    );
  }
  if (!url.href.startsWith(root.href)) {
    throw new UsageError(`${redactUrl(url.href)} is not under the API root ${root.href}`);
  }
}

export interface RawPage {
  page: number;
  /** Each item's JSON exactly as it was in the answer. */
  items: string[];
}

/**
 * GETs `url` with page=1, 2, ... (from the page it names, if any) until `meta.totalPages` or an empty
 * page. The list is the answer's one array-valued field (`leads`, `history`, ...), or the answer itself.
 */
export async function* rawPages(client: LeadClient, url: URL, signal?: AbortSignal): AsyncGenerator<RawPage> {
  let page = Number(url.searchParams.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1)
    throw new UsageError('--paginate needs page to be a whole number from 1');
  for (;;) {
    const pageUrl = new URL(url);
    pageUrl.searchParams.set('page', String(page));
    const answer = await client.request('GET', pageUrl, signal ? { signal } : {});
    const { key, totalPages } = listShape(answer.body, page);
    const items = arrayItemTexts(answer.body, key);
    yield { page, items };
    if (items.length === 0 || totalPages === undefined || page >= totalPages) return;
    page += 1;
  }
}

function listShape(body: string, page: number): { key: string; totalPages: number | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ProtocolError(`--paginate: the answer for page ${page} is not JSON`);
  }
  if (Array.isArray(parsed)) return { key: '', totalPages: undefined };
  if (!isPlainObject(parsed))
    throw new ProtocolError(`--paginate: the answer for page ${page} is not a list`);
  const lists = Object.keys(parsed).filter((name) => Array.isArray(parsed[name]));
  if (lists.length !== 1) {
    throw new ProtocolError(
      `--paginate: the answer for page ${page} has ${lists.length === 0 ? 'no list' : `several lists (${lists.join(', ')})`} of items`,
    );
  }
  const meta = parsed.meta;
  const total = isPlainObject(meta) ? Number(meta.totalPages) : Number.NaN;
  return { key: lists[0] as string, totalPages: Number.isFinite(total) ? total : undefined };
}
