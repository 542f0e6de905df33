// The server's own words from an error body, whatever shape it chose: the spec does not fix one, so
// this reads the common ones (plain `message`, `error`, FastAPI's `detail` list, `errors` arrays,
// RFC 9457 problem details, Rails-style field maps) and falls back to the first line of plain text.
// Server text is untrusted and ends up on a terminal: it goes through the one sanitizer, oneLine.
import { oneLine } from '../text/terminal-text.js';

/** One line, no raw control or invisible characters, capped: the shared sanitizer (src/text/). */
export { oneLine } from '../text/terminal-text.js';

export function extractServerMessage(body: string, contentType?: string): string | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  const json = tryParseJson(text, contentType);
  if (json.ok) {
    const found = messageFrom(json.value, 0);
    return found === undefined ? undefined : oneLine(found);
  }
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|\?xml)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text);
    return title?.[1]?.trim() ? oneLine(decodeBasicEntities(title[1])) : undefined;
  }
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return firstLine === undefined ? undefined : oneLine(firstLine);
}

function tryParseJson(text: string, contentType?: string): { ok: true; value: unknown } | { ok: false } {
  if (!/json/i.test(contentType ?? '') && !/^[[{"]/.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

// Depth-limited: a hostile body could nest deeply.
function messageFrom(value: unknown, depth: number): string | undefined {
  if (depth > 4) return undefined;
  const direct = nonEmpty(value);
  if (direct !== undefined) return direct;
  if (Array.isArray(value)) return listMessage(value, depth);
  if (!isPlainObject(value)) return undefined;
  // `message` beats `error` because `error` is often a code ("rate_limited") beside a sentence.
  for (const key of [
    'message',
    'detail',
    'error',
    'errors',
    'title',
    'msg',
    'error_description',
    'description',
  ]) {
    const inner = value[key];
    if (inner === undefined || inner === null) continue;
    if (key === 'errors' && isPlainObject(inner)) {
      const fields = fieldMapMessage(inner);
      if (fields !== undefined) return fields;
      continue;
    }
    const found = messageFrom(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `[{loc: ['body','location'], msg: 'field required'}, 'x']` -> "location: field required; x". */
function listMessage(items: unknown[], depth: number): string | undefined {
  const parts: string[] = [];
  for (const item of items.slice(0, 10)) {
    if (isPlainObject(item)) {
      const text = nonEmpty(item.msg) ?? nonEmpty(item.message) ?? messageFrom(item, depth + 1);
      if (text === undefined) continue;
      const where = fieldName(item.loc ?? item.field ?? item.path ?? item.param);
      parts.push(where ? `${where}: ${text}` : text);
    } else {
      const text = messageFrom(item, depth + 1);
      if (text !== undefined) parts.push(text);
    }
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

// FastAPI's loc starts with where the value came from ("body", "query"); the user knows fields only.
const LOCATION_WORDS = new Set(['body', 'query', 'path', 'header', 'cookie']);

function fieldName(loc: unknown): string | undefined {
  if (typeof loc === 'string') return loc;
  if (!Array.isArray(loc)) return undefined;
  const names = loc.map(String);
  if (names.length > 1 && LOCATION_WORDS.has(names[0] ?? '')) names.shift();
  return names.length > 0 ? names.join('.') : undefined;
}

/** Rails-style `{errors: {location: ['is required']}}`. */
function fieldMapMessage(map: Record<string, unknown>): string | undefined {
  const parts = Object.entries(map).flatMap(([field, messages]) => {
    const list = Array.isArray(messages) ? messages : [messages];
    return list.filter((m): m is string => typeof m === 'string').map((m) => `${field}: ${m}`);
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function decodeBasicEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
