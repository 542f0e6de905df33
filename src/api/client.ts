// LeadClient: the thin HTTP layer. One undici Agent (keep-alive pool), the key on every request, a
// deadline per attempt, every body read to the end, and the retry policy of retry.ts around it all.

import { Agent, type Dispatcher, request } from 'undici';
import { maskApiKey, SecretMask } from '../text/secrets.js';
import { oneLine } from '../text/terminal-text.js';
import {
  type CallOptions,
  type ClientHooks,
  checkCallOptions,
  checkClientOptions,
  type DeprecationEvent,
  type LeadClientOptions,
  type Logger,
  type ResponseInfo,
  type ResponsePromise,
} from './client-options.js';
import {
  abortErrorFor,
  LeadError,
  listenForAbort,
  maskKeyIn,
  NetworkError,
  RateLimitedError,
  UsageError,
} from './errors.js';
import {
  clientErrorFor,
  mayHaveRun,
  networkErrorFor,
  redirectError,
  unexpectedFailure,
} from './http-errors.js';
import { failing, flattenPages, type ListAllOptions, listAllPages } from './paging/index.js';
import {
  ACCEPT_ENCODING,
  maxBodyBytesFrom,
  parseHistoryPage,
  parseLeadsPage,
  parseSearchResponse,
  type RawResponse,
  readBodyCapped,
} from './parse-response.js';
import { checkRawRequest } from './raw-request.js';
import {
  type AttemptOutcome,
  parseRetryAfterHeader,
  type RetryPolicy,
  type WaitEvent,
  withRetries,
} from './retry.js';
import type { HistoryEntry, HistoryPage, Lead, LeadsPage, SearchResponse } from './schemas.js';
import { type Clock, systemClock } from './timestamp.js';
import { apiUrl, assertKeyTransportIsSafe, resolveApiRoot } from './url.js';

/** Per-call options: `signal`, and overrides of the client's `timeoutMs`, `retries`, `maxWaitMs`. */
export type RequestOptions = CallOptions;

type Headers = Record<string, string | string[] | undefined>;

interface Exchanged {
  status: number;
  headers: Headers;
  text: string;
}

/** True once undici began writing the request: it may have reached the server. */
type SendTracker = { written: boolean };

type CallLog = (message: string, details: Record<string, unknown>) => void;

/** The items of each list `paginate()` reads. */
type ListItem = { leads: Lead; history: HistoryEntry };

interface Call<T> {
  method: string;
  url: URL;
  body?: string | undefined;
  parse: (response: RawResponse) => T;
}

/** One logical call: what it sends every attempt, and what it has seen (its errors and withResponse() carry it). */
interface CallState {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  headers: Record<string, string>;
  attempts: number;
  status?: number;
  answer?: Headers;
}

export class LeadClient {
  readonly #root: URL;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  /** The client's headers, without the key. */
  readonly #headers: Record<string, string>;
  readonly #authorization: string;
  readonly #log: CallLog | undefined;
  readonly #onRateLimit: LeadClientOptions['onRateLimit'];
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #clock: Clock;
  readonly #hooks: ClientHooks;
  readonly #maxBodyBytes: number;
  readonly #apiKey: string;
  #deprecationReported = false;
  #closed: Promise<void> | undefined;

  constructor(options: LeadClientOptions) {
    checkClientOptions(options);
    this.#root = resolveApiRoot(options.baseUrl);
    assertKeyTransportIsSafe(this.#root);
    const apiKey = (options.apiKey ?? '').trim();
    if (apiKey === '') {
      throw new LeadError('no API key configured', {
        code: 'no_api_key',
        hint: "pass `apiKey`: the key from the account's API settings",
        cliHint: 'run: leadctl config set api-key   (or set LEADCTL_API_KEY)',
      });
    }
    // undici would refuse such a header with a message of its own; say what is wrong, without the key.
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new UsageError('the API key contains spaces or characters that cannot be sent in an HTTP header');
    }
    this.#apiKey = apiKey;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxBodyBytes = maxBodyBytesFrom(options.maxBodyBytes);
    const retries = options.retries ?? 3;
    this.#policy = {
      retries,
      rateLimitWaits: Math.max(retries, 5),
      maxWaitMs: options.maxWaitMs ?? 60_000,
      backoffBaseMs: options.backoffBaseMs ?? 500,
      backoffCapMs: options.backoffCapMs ?? 8000,
      random: options.random ?? Math.random,
    };
    this.#clock = options.clock ?? systemClock;
    this.#log = options.logger && maskedLog(options.logger, apiKey);
    const hooks = options.hooks ?? {};
    const onWait = (event: WaitEvent) => {
      this.#log?.(`wait ${event.waitMs} ms after ${event.failure}`, { ...event });
      hooks.onWait?.(event);
    };
    this.#hooks = { ...hooks, onWait };
    this.#onRateLimit = options.onRateLimit;
    this.#headers = {
      'user-agent': options.userAgent ?? 'leadctl',
      accept: 'application/json',
      ...lowerCaseNames(options.headers),
    };
    this.#authorization = `Bearer ${apiKey}`;
    this.#ownsDispatcher = options.dispatcher === undefined;
    // The agent's own timeouts are a backstop; each request passes its deadline's length too.
    // Checked to have dispatch(); compose() (send tracking) is on every undici Dispatcher since 6.
    this.#dispatcher =
      (options.dispatcher as unknown as Dispatcher | undefined) ??
      new Agent({
        connections: options.connections ?? 16,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        connectTimeout: Math.min(this.#timeoutMs, 10_000),
      });
  }

  /** The API root every path is resolved against, e.g. `https://host/api/v1/`. */
  get apiRoot(): string {
    return this.#root.href;
  }

  listLeads(params: { page?: number; limit?: number }, options?: RequestOptions): ResponsePromise<LeadsPage> {
    return this.#send(() => {
      const url = apiUrl(this.#root, 'leads', { page: params?.page, limit: params?.limit });
      return { method: 'GET', url, parse: (r) => parseLeadsPage(r, params) };
    }, options);
  }

  listHistory(
    params: { page?: number; limit?: number },
    options?: RequestOptions,
  ): ResponsePromise<HistoryPage> {
    return this.#send(() => {
      const url = apiUrl(this.#root, 'history', { page: params?.page, limit: params?.limit });
      return { method: 'GET', url, parse: (r) => parseHistoryPage(r, params) };
    }, options);
  }

  /**
   * POST /search. Retried only when the server provably never saw it (refused, DNS, TLS handshake,
   * no byte written) or a status says it was not processed (5xx, 429); after a reset or timeout once
   * sent it fails (NetworkError) rather than spend a second live search. Every attempt carries the
   * same `Idempotency-Key`.
   */
  search(
    params: { query: string; location: string; radius?: number | undefined },
    options?: RequestOptions,
  ): ResponsePromise<SearchResponse> {
    return this.#send(() => {
      const { query, location, radius } = params;
      const body = JSON.stringify({ query, location, ...(radius === undefined ? {} : { radius }) });
      const parse = (r: RawResponse) => parseSearchResponse(r, params);
      return { method: 'POST', url: apiUrl(this.#root, 'search'), body, parse };
    }, options);
  }

  /**
   * Every item of a list, newest first, each once, fetched `concurrency` pages at a time: the same
   * paging as `leadctl leads --all`. `since` takes a Date, an ISO date/time or a span like `7d`.
   * Bad options reject on the first `next()`, as every other failure does.
   */
  paginate<R extends keyof ListItem>(resource: R, options: ListAllOptions = {}): AsyncIterable<ListItem[R]> {
    return flattenPages(this.paginatePages(resource, options), options?.signal);
  }

  /** The items of paginate(), in batches of up to a page: cheaper when writing many items at once. */
  paginatePages<R extends keyof ListItem>(
    resource: R,
    options: ListAllOptions = {},
  ): AsyncIterable<ListItem[R][]> {
    if (resource !== 'leads' && resource !== 'history') {
      return failing(
        new UsageError(`resource must be 'leads' or 'history' (got ${oneLine(String(resource), 40)})`),
      );
    }
    return listAllPages(this, resource, options, this.#clock.now()) as AsyncIterable<ListItem[R][]>;
  }

  /**
   * Any request under the API root, with the key, the deadline, retries and 429 waits of every call;
   * a 2xx answer comes back as read, any other status as its typed error. For `leadctl api`. A method
   * other than GET or HEAD is not sent again once it may have reached the server.
   */
  request(
    method: string,
    url: URL,
    options: RequestOptions & { body?: string } = {},
  ): ResponsePromise<RawResponse> {
    return this.#send(() => {
      checkRawRequest(this.#root, method, url);
      return { method: method.toUpperCase(), url, body: options.body, parse: (r: RawResponse) => r };
    }, options);
  }

  /** Closes the connection pool (not a `dispatcher` you gave). Calls after it reject; closing again is a no-op. */
  async close(): Promise<void> {
    this.#closed ??= this.#ownsDispatcher ? this.#dispatcher.close() : Promise.resolve();
    await this.#closed;
  }

  #send<T>(build: () => Call<T>, options: RequestOptions | undefined): ResponsePromise<T> {
    const called = (async () => this.#call(build(), options))();
    const data = called.then((answer) => answer.data);
    const withResponse = () => {
      data.catch(() => {}); // the caller awaits `called` instead: no unhandled rejection of its twin
      return called;
    };
    return Object.assign(data, { withResponse });
  }

  async #call<T>(
    call: Call<T>,
    given: RequestOptions | undefined,
  ): Promise<{ data: T; response: ResponseInfo }> {
    const options = checkCallOptions(given);
    if (this.#closed)
      throw new UsageError('this LeadClient is closed', 'create a new LeadClient to send more');
    const { signal } = options;
    const retries = options.retries ?? this.#policy.retries;
    const onRateLimit = this.#onRateLimit;
    const policy: RetryPolicy = {
      ...this.#policy,
      retries,
      ...(options.retries === undefined ? {} : { rateLimitWaits: Math.max(retries, 5) }),
      ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
      ...(onRateLimit && {
        onRateLimit: (wait) => {
          const { method, url } = call;
          return onRateLimit({ ...wait, method, url: url.href, requestId: requestIdOf(state.answer) });
        },
      }),
    };
    // One key for every attempt of this call: a server that honours it never runs the call twice.
    const idempotencyKey =
      options.idempotencyKey ?? (isRepeatable(call.method) ? undefined : globalThis.crypto.randomUUID());
    const headers = {
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...this.#headers,
      ...lowerCaseNames(options.headers),
      authorization: this.#authorization,
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    };
    const state: CallState = {
      signal,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      headers,
      attempts: 0,
    };
    try {
      const attempt = (n: number) => this.#attempt(call, n, state);
      const data = await withRetries(attempt, policy, this.#clock, this.#hooks, signal);
      const response = { status: state.status ?? 0, headers: flatHeaders(state.answer ?? {}) };
      return { data, response: { ...response, requestId: requestIdOf(state.answer) } };
    } catch (error) {
      throw this.#annotate(signal?.aborted ? abortErrorFor(signal.reason) : error, call, state);
    }
  }

  async #attempt<T>(call: Call<T>, attempt: number, state: CallState): Promise<AttemptOutcome<T>> {
    const { method, url } = call;
    this.#hooks.beforeAttempt?.({ method, url: url.href, attempt });
    state.attempts = attempt;
    const started = process.hrtime.bigint();
    const tracker: SendTracker | undefined = isRepeatable(method) ? undefined : { written: false };
    const report = (event: { status?: number; headers?: Headers; error?: string }) =>
      this.#hooks.onAttempt?.({
        method,
        url: url.href,
        attempt,
        ms: elapsedMs(started),
        ...event,
        ...(event.status !== undefined ? { sent: true } : tracker ? { sent: tracker.written } : {}),
      });
    let response: Exchanged;
    try {
      response = await this.#exchange(call, state, tracker, attempt);
    } catch (failure) {
      report({ error: (failure as LeadError).message });
      if (!(failure instanceof NetworkError)) throw failure;
      if (tracker?.written && failure.kind !== 'tls')
        return { kind: 'network', error: mayHaveRun(failure, method, url), final: true };
      return { kind: 'network', error: failure };
    }
    const { status, headers, text } = response;
    state.answer = headers;
    state.status = status;
    report({ status, headers });
    this.#noticeDeprecation(headers);
    const raw: RawResponse = { status, body: text, contentType: firstHeader(headers, 'content-type') };
    if (status >= 200 && status < 300) return { kind: 'success', value: call.parse(raw) };
    if (status >= 300 && status < 400) throw redirectError(status, firstHeader(headers, 'location'), url);
    const retryAfterHeader = firstHeader(headers, 'retry-after');
    if (status === 429) return { kind: 'rate-limited', response: raw, retryAfterHeader };
    if (status >= 500) return { kind: 'server-error', response: raw, retryAfterHeader };
    throw clientErrorFor(raw, url);
  }

  // One HTTP exchange: the body read to its end under the cap, all under the deadline. Rejects with a
  // LeadError: abortErrorFor(the caller's reason), a NetworkError (the deadline's is a timeout), a
  // ProtocolError for a peer that does not speak HTTP, or unexpectedFailure().
  async #exchange(
    call: Call<unknown>,
    state: CallState,
    tracker: SendTracker | undefined,
    attempt: number,
  ): Promise<Exchanged> {
    const { method, url } = call;
    const { signal, timeoutMs } = state;
    const log =
      this.#log && ((message: string, details: object) => this.#log?.(message, { ...details, attempt }));
    const line = `${method} ${url.href}`;
    log?.(line, { method, url: url.href, headers: state.headers, body: call.body });
    const started = process.hrtime.bigint();
    const controller = new AbortController();
    const stopListening = listenForAbort(signal, (reason) => controller.abort(reason));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('deadline'));
    }, timeoutMs);
    try {
      const res = await request(url, {
        dispatcher: tracker ? tracking(this.#dispatcher, tracker) : this.#dispatcher,
        method: method as Dispatcher.HttpMethod,
        headers: { ...state.headers, 'accept-encoding': ACCEPT_ENCODING },
        ...(call.body === undefined ? {} : { body: call.body }),
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      // Read every body, errors included, or the connection is not returned to the pool.
      const text = await readBodyCapped(res, this.#maxBodyBytes);
      const { statusCode: status, headers } = res;
      const ms = elapsedMs(started);
      const details = {
        status,
        ms,
        requestId: requestIdOf(headers),
        headers: flatHeaders(headers),
        body: text,
      };
      log?.(`${line} answered ${status} in ${ms} ms`, details);
      return { status, headers, text };
    } catch (error) {
      const failure =
        (signal?.aborted
          ? abortErrorFor(signal.reason ?? error)
          : error instanceof LeadError
            ? error
            : networkErrorFor(timedOut ? { code: 'ETIMEDOUT' } : error, url, timeoutMs)) ??
        unexpectedFailure(error, url);
      log?.(`${line} failed: ${failure.message}`, { ms: elapsedMs(started) });
      throw failure;
    } finally {
      clearTimeout(timer);
      stopListening();
    }
  }

  // Every error of a call says which request, after how many attempts, and what the server asked; a
  // key the server echoed is masked; then the onError hook sees it.
  #annotate(error: unknown, call: Call<unknown>, state: CallState): unknown {
    if (!(error instanceof LeadError)) return error;
    maskKeyIn(error, this.#apiKey);
    error.url ??= call.url.href;
    error.attempts ??= state.attempts;
    if (state.answer) error.headers ??= flatHeaders(state.answer);
    error.requestId ??= requestIdOf(state.answer);
    if (error.retryAfterMs === undefined) {
      const now = this.#clock.now();
      const at =
        error instanceof RateLimitedError && error.resetAt
          ? error.resetAt.getTime()
          : parseRetryAfterHeader(state.answer && firstHeader(state.answer, 'retry-after'), now);
      if (at !== undefined) error.retryAfterMs = Math.max(0, at - now);
    }
    this.#hooks.onError?.(error);
    return error;
  }

  /** The deprecation headers of the first answer with any, all together (the notice and sunset matter). */
  #noticeDeprecation(headers: Headers): void {
    if (this.#deprecationReported || !this.#hooks.onDeprecation) return;
    const event: DeprecationEvent = {};
    for (const [field, header] of Object.entries(DEPRECATION_HEADERS)) {
      const value = firstHeader(headers, header);
      if (value !== undefined && value.trim() !== '') event[field as keyof DeprecationEvent] = oneLine(value);
    }
    if (Object.keys(event).length === 0) return;
    this.#deprecationReported = true;
    this.#hooks.onDeprecation(event);
  }
}

/** GET and HEAD change nothing: they may be sent again whatever happened to an attempt. */
function isRepeatable(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** Header names as undici hands them back, so that a caller's `User-Agent` replaces ours. */
function lowerCaseNames(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

/** The caller's logger behind a mask: the key is hidden in every text, the Authorization header too. */
function maskedLog(logger: Logger, apiKey: string): CallLog {
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

// undici calls a handler's onRequestStart (onConnect in its older API) right before it writes the
// request on a connected socket (client-h1.js writeH1). A failure before that (refused, DNS, TLS
// handshake, connect timeout, a keep-alive socket found closed, which undici itself re-queues) proves
// the server never saw the request; after it, a reset or a timeout leaves it unknown.
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

function firstHeader(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function flatHeaders(headers: Headers): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Where servers put a request's id: the de facto X-Request-Id, Stripe's, AWS's, others', Cloudflare's. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-correlation-id', 'cf-ray'];

function requestIdOf(headers: Headers | undefined): string | undefined {
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

/** Milliseconds since `started` (process.hrtime: node:perf_hooks would cost a module load per run). */
function elapsedMs(started: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - started) / 1e6);
}
