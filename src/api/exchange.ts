// One HTTP exchange: the request sent, the body read to its end under a cap, all under a deadline;
// and, for a request that must not be repeated blindly, whether any byte of it was handed to a socket.
//
// undici calls a handler's onRequestStart (onConnect in its older API) right before it writes the
// request on a connected socket (client-h1.js writeH1). A failure before that (refused, DNS, TLS
// handshake, connect timeout, a keep-alive socket found closed, which undici itself re-queues) proves
// the server never saw the request; after it, a reset or a timeout leaves it unknown.
import { type Dispatcher, request } from 'undici';
import { maskApiKey, SecretMask } from '../text/secrets.js';
import { oneLine } from '../text/terminal-text.js';
import type { DeprecationEvent, Logger } from './client-options.js';
import { abortErrorFor, LeadError } from './errors.js';
import { networkErrorFor, unexpectedFailure } from './http-errors.js';
import { ACCEPT_ENCODING, readBodyCapped } from './parse-response.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface Exchanged {
  status: number;
  headers: Headers;
  text: string;
}

export interface SendTracker {
  /** True once undici began writing the request: it may have reached the server. */
  written: boolean;
}

export interface ExchangeRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
  maxBodyBytes: number;
  dispatcher: Dispatcher;
  /** The caller's: its abort wins. */
  signal?: AbortSignal | undefined;
  tracker?: SendTracker | undefined;
  /** Told the request, then its answer or failure. */
  log?: CallLog | undefined;
}

export type CallLog = (message: string, details: Record<string, unknown>) => void;

/** The caller's logger behind a mask: the key is hidden in every text, the Authorization header too. */
export function maskedLog(logger: Logger, apiKey: string): CallLog {
  const secrets = new SecretMask();
  secrets.remember(apiKey);
  const authorization = `Bearer ${apiKey}`;
  const mask = (value: unknown): unknown =>
    typeof value === 'string'
      ? secrets.mask(value === authorization ? `Bearer ${maskApiKey(apiKey)}` : value)
      : value && typeof value === 'object' && !(value instanceof Date)
        ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, mask(inner)]))
        : value;
  return (message, details) => logger.debug(secrets.mask(message), mask(details) as Record<string, unknown>);
}

/**
 * Rejects with a LeadError: abortErrorFor(the caller's reason), a NetworkError (the deadline's is a
 * timeout), a ProtocolError for a peer that does not speak HTTP, or unexpectedFailure().
 */
export async function exchange(call: ExchangeRequest): Promise<Exchanged> {
  const { method, url, signal, timeoutMs } = call;
  const line = `${method} ${url.href}`;
  call.log?.(line, { method, url: url.href, headers: call.headers, body: call.body });
  const started = process.hrtime.bigint();
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('deadline'));
  }, timeoutMs);
  try {
    const res = await request(url, {
      dispatcher: call.tracker ? tracking(call.dispatcher, call.tracker) : call.dispatcher,
      method: method as Dispatcher.HttpMethod,
      headers: { ...call.headers, 'accept-encoding': ACCEPT_ENCODING },
      ...(call.body === undefined ? {} : { body: call.body }),
      signal: controller.signal,
      // undici's own timeouts are a backstop; the deadline above is the real one.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // Read every body, errors included, or the connection is not returned to the pool.
    const text = await readBodyCapped(res, call.maxBodyBytes);
    const { statusCode: status, headers } = res;
    const ms = elapsedMs(started);
    const details = {
      status,
      ms,
      requestId: requestIdOf(headers),
      headers: flatHeaders(headers),
      body: text,
    };
    call.log?.(`${line} answered ${status} in ${ms} ms`, details);
    return { status, headers, text };
  } catch (error) {
    const failure =
      (signal?.aborted
        ? abortErrorFor(signal.reason ?? error)
        : error instanceof LeadError
          ? error
          : networkErrorFor(timedOut ? { code: 'ETIMEDOUT' } : error, url, timeoutMs)) ??
      unexpectedFailure(error, url);
    call.log?.(`${line} failed: ${failure.message}`, { ms: elapsedMs(started) });
    throw failure;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

function tracking(dispatcher: Dispatcher, tracker: SendTracker): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart(controller, context) {
          tracker.written = true;
          handler.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
        onResponseStart: (...args) => handler.onResponseStart?.(...args),
        onResponseData: (...args) => handler.onResponseData?.(...args),
        onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
        onResponseError: (...args) => handler.onResponseError?.(...args),
      }),
  );
}

export function firstHeader(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function flatHeaders(headers: Headers): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Where servers put a request's id: the de facto X-Request-Id, Stripe's, AWS's, others', Cloudflare's. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-correlation-id', 'cf-ray'];

export function requestIdOf(headers: Headers | undefined): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers && firstHeader(headers, name);
    if (value?.trim()) return oneLine(value, 200);
  }
  return undefined;
}

const DEPRECATION_HEADERS = {
  deprecation: 'deprecation',
  sunset: 'sunset',
  notice: 'x-api-deprecation-notice',
} as const;

/** Every deprecation header of an answer together: the notice's words and the sunset date matter. */
export function deprecationOf(headers: Headers): DeprecationEvent | undefined {
  const event: DeprecationEvent = {};
  for (const [field, header] of Object.entries(DEPRECATION_HEADERS)) {
    const value = firstHeader(headers, header);
    if (value !== undefined && value.trim() !== '') event[field as keyof DeprecationEvent] = oneLine(value);
  }
  return Object.keys(event).length === 0 ? undefined : event;
}

/** Milliseconds since `started` (process.hrtime: node:perf_hooks would cost a module load per run). */
export function elapsedMs(started: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - started) / 1e6);
}
