// From an HTTP answer that is not a success to the typed error the user sees. Messages put our words
// first and the server's after a colon: `server refused the request (422): location is required`.

import { oneLine } from '../text/terminal-text.js';
import {
  AuthError,
  ExitCode,
  ForbiddenError,
  type Hints,
  type HttpError,
  hints,
  LeadError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  ServerError,
  ValidationError,
} from './errors.js';
import type { RawResponse } from './parse-response.js';

function withServerMessage(summary: string, serverMessage: string | undefined): string {
  return serverMessage ? `${summary}: ${serverMessage}` : summary;
}

/** A path the API serves: a 404 there means the base URL is wrong, elsewhere the path is. */
const API_PATH = /\/(leads|history|search)\/?$/;

/** 4xx answers other than 429: never retried. */
export function clientErrorFor(response: RawResponse, url: URL): HttpError {
  const { status } = response;
  const serverMessage = extractServerMessage(response.body, response.contentType);
  const info = { status, serverMessage };
  if (status === 401) {
    return new AuthError(withServerMessage(`the server rejected the API key (401)`, serverMessage), {
      ...info,
      code: 'unauthorized',
      hint: 'check the `apiKey` given to LeadClient: the server does not accept it',
      cliHint: 'run: leadctl config set api-key   (or set LEADCTL_API_KEY)',
    });
  }
  if (status === 403) {
    return new ForbiddenError(withServerMessage(`access denied (403)`, serverMessage), {
      ...info,
      hint: "the account may be deactivated, or its plan may not include API access: check the account's plan and API settings",
    });
  }
  if (status === 404) {
    const facts = API_PATH.test(url.pathname)
      ? hints(
          (o) =>
            `check ${o.baseUrl}: ${o.client} appends /api/v1/... to it, so give the address the API is served from`,
        )
      : {
          hint: 'the API serves leads, history and search under /api/v1/: check the path',
          cliHint:
            'the server has no such path: the API serves leads, history and search (leadctl api leads)',
        };
    return new NotFoundError(withServerMessage(`not found (404): ${url.pathname}`, serverMessage), {
      ...info,
      ...facts,
    });
  }
  return new ValidationError(
    withServerMessage(`server refused the request (${status})`, serverMessage),
    info,
  );
}

/** A 5xx that was not retried (501, 505, ...) or whose retries ran out. */
export function serverErrorFor(response: RawResponse, attempts: number, note?: string): ServerError {
  const serverMessage = extractServerMessage(response.body, response.contentType);
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const summary = `server error (${response.status})${tries}`;
  return new ServerError(withServerMessage(summary, serverMessage) + (note ? ` (${note})` : ''), {
    status: response.status,
    serverMessage,
    ...hints(
      (o) =>
        `the service may be having trouble: try again later (${o.retries} sets how often ${o.client} retries)`,
    ),
  });
}

/** What to do about a 429: wait for a reset within the hour (or let the client wait that long), else come back. */
export function rateLimitHints(resetAt: Date | undefined, maxWaitMs: number, nowMs: number): Hints {
  if (resetAt === undefined) return { hint: 'try again later' };
  if (resetAt.getTime() - nowMs > 60 * 60 * 1000) {
    return {
      hint: 'try again then',
      cliHint: 'try again then; leadctl usage shows what this machine has sent today',
    };
  }
  return {
    hint: `wait until then, or raise \`maxWaitMs\` (now ${maxWaitMs}) to let the client wait`,
    cliHint: `wait until then, or raise --max-wait (now ${maxWaitMs / 1000} s) to let leadctl wait`,
  };
}

/** undici does not follow redirects; following one would carry the key to wherever it points. */
export function redirectError(status: number, location: string | undefined, url: URL): ProtocolError {
  let target = 'another address';
  if (location) {
    try {
      target = new URL(location, url).origin;
    } catch {
      target = 'an unreadable address';
    }
  }
  return new ProtocolError(
    `the server redirected (${status}) to ${target}; leadctl does not follow redirects with the API key attached`,
    hints((o) => `if the API has moved, set ${o.baseUrl} to its new address`),
  );
}

/** Error codes of Node's net/dns/tls and undici, sorted into the kinds NetworkError reports. */
export type NetworkKind = 'refused' | 'reset' | 'timeout' | 'dns' | 'tls' | 'unreachable';

const KIND_BY_CODE: Record<string, NetworkKind> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  ENETUNREACH: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  EHOSTDOWN: 'unreachable',
};

/** What OpenSSL says when the first bytes back are not a TLS record: an HTTP reply to our hello. */
const PLAIN_HTTP_REPLY = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_HTTP_REQUEST',
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? errorCode(cause) : undefined;
}

/**
 * A transport failure as a NetworkError (retryable unless its kind is 'tls'), a ProtocolError when the
 * other end does not speak HTTP, or undefined when it is not a network failure at all (a bug: rethrow).
 */
export function networkErrorFor(
  error: unknown,
  url: URL,
  timeoutMs: number,
): NetworkError | ProtocolError | undefined {
  const code = errorCode(error);
  const host = url.port ? `${url.hostname}:${url.port}` : url.hostname;
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new ProtocolError(
      `${host} answered with response headers larger than leadctl reads (16 KiB); the answer was not read`,
      hints((o) => `check ${o.baseUrl}: is it the API, and not a proxy or login page in front of it?`),
    );
  }
  if (isHttpParserError(error) || code?.startsWith('HPE_')) {
    return new ProtocolError(
      `${host} did not answer with valid HTTP (${parserReason(error, code)})`,
      hints((o) => `check ${o.baseUrl}: is it the API?`),
    );
  }
  if (code === undefined) return undefined;
  const kind = KIND_BY_CODE[code] ?? (/CERT|SSL|TLS/.test(code) ? 'tls' : undefined);
  if (kind === undefined) return undefined;
  if (PLAIN_HTTP_REPLY.has(code)) {
    return new NetworkError(
      `secure connection to ${host} failed: it answered in plain HTTP, not TLS (${code})`,
      'tls',
      {
        ...hints((o) => `use http:// in ${o.baseUrl} for a plain-http port, or the port that serves https`),
        cause: error,
      },
    );
  }
  const messages: Record<NetworkKind, string> = {
    refused: `cannot reach ${host} (connection refused)`,
    reset: `connection to ${host} was closed before the answer was complete (reset)`,
    timeout: `no answer from ${host} within ${formatSeconds(timeoutMs)} (timeout)`,
    dns: `cannot reach ${host} (DNS lookup failed: ${code})`,
    tls: `secure connection to ${host} failed (${code})`,
    unreachable: `cannot reach ${host} (network unreachable: ${code})`,
  };
  const hint: Record<NetworkKind, Hints> = {
    refused: hints((o) => `check ${o.baseUrl}, and that the server is running`),
    reset: { hint: 'the server or a proxy dropped the connection: try again later' },
    timeout: hints((o) => `the server is slow or unreachable: try again later, or raise ${o.timeout}`),
    dns: hints((o) => `check the host name in ${o.baseUrl}, and your network connection`),
    tls: hints(
      (o) =>
        `the server's certificate could not be verified, or it does not speak TLS: check ${o.baseUrl}; behind a corporate proxy or CA, point NODE_EXTRA_CA_CERTS at its CA certificate (PEM)`,
    ),
    unreachable: { hint: 'check your network connection' },
  };
  return new NetworkError(messages[kind], kind, { ...hint[kind], cause: error });
}

/** undici's HTTPParserError: a reply that is not HTTP, or a header with a byte HTTP forbids. */
function isHttpParserError(error: unknown): boolean {
  return error instanceof Error && error.name === 'HTTPParserError';
}

/** "Invalid header value char" out of undici's "Response does not match the HTTP/1.1 protocol (...)". */
function parserReason(error: unknown, code: string | undefined): string {
  const message = error instanceof Error ? error.message : '';
  const reason = /\(([^()]+)\)\s*$/.exec(message)?.[1] ?? code ?? message;
  return oneLine(reason, 80) || 'unreadable reply';
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** A reset or timeout after the request was written: the server may have run it, so it is not resent. */
export function mayHaveRun(failure: NetworkError, method: string, url: URL): NetworkError {
  const search = method === 'POST' && url.pathname.endsWith('/search');
  const what = search
    ? 'after the search was sent: it may have run on the server and spent a live search; leadctl did not send it again'
    : `after the ${method} request was sent: the server may have processed it; leadctl did not send it again`;
  const facts: Hints = search
    ? {
        hint: 'see whether it ran with listHistory(); to repeat it deliberately, call search() again (it may spend another live search)',
        cliHint:
          'see whether it ran with `leadctl history`; to repeat it deliberately, run the same command again (it may spend another live search)',
      }
    : { hint: 'check whether it took effect before you send it again' };
  return new NetworkError(`${failure.message}, ${what}`, failure.kind, {
    ...facts,
    code: 'sent_without_answer',
    cause: failure.cause,
  });
}

/** A failure of the transport nobody sorted: still a LeadError (a host's catch sees one kind of error). */
export function unexpectedFailure(error: unknown, url: URL): LeadError {
  const reason = oneLine(error instanceof Error ? error.message : String(error), 120) || 'no reason given';
  return new LeadError(`request to ${url.host} failed: ${reason}`, {
    exitCode: ExitCode.internal,
    cause: error,
  });
}

// The server's own words from an error body, whatever shape it chose (docs/retries.md, "Error messages").
// Server text is untrusted and ends up on a terminal: it goes through the one sanitizer, oneLine.
export function extractServerMessage(body: string, contentType?: string): string | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  const json = parseJsonBody(text, contentType);
  if (json !== undefined) {
    const found = messageFrom(json, 0);
    return found === undefined ? undefined : oneLine(found);
  }
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|\?xml)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text);
    return title?.[1]?.trim() ? oneLine(decodeBasicEntities(title[1])) : undefined;
  }
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return firstLine === undefined ? undefined : oneLine(firstLine);
}

/** The body's JSON value, when it says or looks like JSON and is; else undefined. */
export function parseJsonBody(body: string, contentType?: string): unknown {
  const text = body.replace(/^[ \t\n\r]+/, '');
  if (!/json/i.test(contentType ?? '') && !/^[[{"]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
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
