// LeadClient: the thin HTTP layer. One undici Agent (keep-alive pool), the key on every request, a
// deadline per attempt, every body read to the end, and the retry policy of retry.ts around it all.

import { Agent, type Dispatcher } from 'undici';
import {
  type CallOptions,
  type ClientHooks,
  checkCallOptions,
  checkClientOptions,
  type DeprecationEvent,
  type LeadClientOptions,
} from './client-options.js';
import { abortErrorFor, ExitCode, LeadError, NetworkError, RateLimitedError, UsageError } from './errors.js';
import { type Exchanged, exchange, type SendTracker } from './exchange.js';
import {
  clientErrorFor,
  mayHaveRun,
  networkErrorFor,
  redirectError,
  unexpectedFailure,
} from './http-errors.js';
import { failing, flattenPages, type ListAllOptions, listAllPages } from './paging/index.js';
import {
  maxBodyBytesFrom,
  parseHistoryPage,
  parseLeadsPage,
  parseSearchResponse,
  type RawResponse,
} from './parse-response.js';
import { type AttemptOutcome, parseRetryAfterHeader, type RetryPolicy, withRetries } from './retry.js';
import type { HistoryEntry, HistoryPage, Lead, LeadsPage, SearchResponse } from './schemas.js';
import { oneLine } from './server-message.js';
import { type Clock, systemClock } from './timestamp.js';
import { apiUrl, assertKeyTransportIsSafe, redactUrl, resolveApiRoot } from './url.js';

export type {
  AttemptEvent,
  CallOptions,
  ClientHooks,
  DeprecationEvent,
  LeadClientOptions,
} from './client-options.js';
export type { ListAllOptions } from './paging/index.js';
export type { WaitEvent } from './retry.js';

/** Per-call options: `signal`, and overrides of the client's `timeoutMs`, `retries`, `maxWaitMs`. */
export type RequestOptions = CallOptions;

const DEPRECATION_HEADERS = {
  deprecation: 'deprecation',
  sunset: 'sunset',
  notice: 'x-api-deprecation-notice',
} as const;

interface Call<T> {
  method: string;
  url: URL;
  body?: string;
  parse: (response: RawResponse) => T;
}

/** What one logical call has seen so far: its errors carry it. */
interface CallState {
  attempts: number;
  headers?: Record<string, string | string[] | undefined>;
}

export class LeadClient {
  readonly #root: URL;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #clock: Clock;
  readonly #hooks: ClientHooks;
  readonly #maxBodyBytes: number;
  #deprecationReported = false;

  constructor(options: LeadClientOptions) {
    checkClientOptions(options);
    this.#root = resolveApiRoot(options.baseUrl);
    assertKeyTransportIsSafe(this.#root);
    const apiKey = (options.apiKey ?? '').trim();
    if (apiKey === '') {
      throw new LeadError('no API key configured', {
        exitCode: ExitCode.auth,
        hint: 'run: leadctl config set api-key   (or set LEADCTL_API_KEY)',
      });
    }
    // undici would refuse such a header with a message of its own; say what is wrong, without the key.
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new UsageError('the API key contains spaces or characters that cannot be sent in an HTTP header');
    }
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
    this.#hooks = options.hooks ?? {};
    this.#headers = {
      authorization: `Bearer ${apiKey}`,
      'user-agent': options.userAgent ?? 'leadctl',
      accept: 'application/json',
    };
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

  async listLeads(params: { page?: number; limit?: number }, options?: RequestOptions): Promise<LeadsPage> {
    const url = apiUrl(this.#root, 'leads', { page: params?.page, limit: params?.limit });
    return this.#call({ method: 'GET', url, parse: (r) => parseLeadsPage(r, params) }, options);
  }

  async listHistory(
    params: { page?: number; limit?: number },
    options?: RequestOptions,
  ): Promise<HistoryPage> {
    const url = apiUrl(this.#root, 'history', { page: params?.page, limit: params?.limit });
    return this.#call({ method: 'GET', url, parse: (r) => parseHistoryPage(r, params) }, options);
  }

  /**
   * POST /search. Retried only when the server provably never saw it (refused, DNS, TLS handshake,
   * no byte written) or a status says it was not processed (5xx, 429); after a reset or timeout once
   * sent it fails (NetworkError) rather than spend a second live search. Every attempt carries the
   * same `Idempotency-Key`.
   */
  async search(
    params: { query: string; location: string; radius?: number },
    options?: RequestOptions,
  ): Promise<SearchResponse> {
    const { query, location, radius } = params;
    const body = JSON.stringify({ query, location, ...(radius === undefined ? {} : { radius }) });
    const url = apiUrl(this.#root, 'search');
    const parse = (r: RawResponse) => parseSearchResponse(r, params);
    return this.#call({ method: 'POST', url, body, parse }, options);
  }

  /**
   * Every item of a list, newest first, each once, fetched `concurrency` pages at a time: the same
   * paging as `leadctl leads --all`. `since` takes a Date, an ISO date/time or a span like `7d`.
   * Bad options reject on the first `next()`, as every other failure does.
   */
  paginate(resource: 'leads', options?: ListAllOptions): AsyncIterable<Lead>;
  paginate(resource: 'history', options?: ListAllOptions): AsyncIterable<HistoryEntry>;
  paginate(resource: 'leads' | 'history', options?: ListAllOptions): AsyncIterable<Lead | HistoryEntry>;
  paginate(resource: 'leads' | 'history', options: ListAllOptions = {}): AsyncIterable<Lead | HistoryEntry> {
    return flattenPages(this.paginatePages(resource, options));
  }

  /** The items of paginate(), in batches of up to a page: cheaper when writing many items at once. */
  paginatePages(resource: 'leads', options?: ListAllOptions): AsyncIterable<Lead[]>;
  paginatePages(resource: 'history', options?: ListAllOptions): AsyncIterable<HistoryEntry[]>;
  paginatePages(
    resource: 'leads' | 'history',
    options?: ListAllOptions,
  ): AsyncIterable<(Lead | HistoryEntry)[]>;
  paginatePages(
    resource: 'leads' | 'history',
    options: ListAllOptions = {},
  ): AsyncIterable<(Lead | HistoryEntry)[]> {
    if (resource !== 'leads' && resource !== 'history') {
      return failing(
        new UsageError(`resource must be 'leads' or 'history' (got ${oneLine(String(resource), 40)})`),
      );
    }
    return listAllPages(this, resource, options, this.#clock.now());
  }

  /**
   * Any request under the API root, with the key, the deadline, retries and 429 waits of every call;
   * a 2xx answer comes back as read, any other status as its typed error. For `leadctl api`. A method
   * other than GET or HEAD is not sent again once it may have reached the server.
   */
  async request(
    method: string,
    url: URL,
    options: RequestOptions & { body?: string } = {},
  ): Promise<RawResponse> {
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
    if (!url.href.startsWith(this.#root.href)) {
      throw new UsageError(`${redactUrl(url.href)} is not under the API root ${this.#root.href}`);
    }
    const call: Call<RawResponse> = { method: method.toUpperCase(), url, parse: (r) => r };
    if (options.body !== undefined) call.body = options.body;
    return this.#call(call, options);
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #call<T>(call: Call<T>, given: RequestOptions | undefined): Promise<T> {
    const options = checkCallOptions(given);
    const { signal } = options;
    const retries = options.retries ?? this.#policy.retries;
    const policy: RetryPolicy = {
      ...this.#policy,
      retries,
      ...(options.retries === undefined ? {} : { rateLimitWaits: Math.max(retries, 5) }),
      ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
    };
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const state: CallState = { attempts: 0 };
    // One key for every attempt of this call: a server that honours it never runs the call twice.
    const idempotencyKey = isRepeatable(call.method) ? undefined : globalThis.crypto.randomUUID();
    try {
      return await withRetries(
        (n) => this.#attempt(call, n, { signal, timeoutMs, state, idempotencyKey }),
        policy,
        this.#clock,
        this.#hooks,
        signal,
      );
    } catch (error) {
      throw this.#annotate(signal?.aborted ? abortErrorFor(signal.reason) : error, call, state);
    }
  }

  async #attempt<T>(
    call: Call<T>,
    attempt: number,
    context: {
      signal: AbortSignal | undefined;
      timeoutMs: number;
      state: CallState;
      idempotencyKey?: string | undefined;
    },
  ): Promise<AttemptOutcome<T>> {
    this.#hooks.beforeAttempt?.({ method: call.method, url: call.url.href, attempt });
    context.state.attempts = attempt;
    const report = (event: { status?: number; headers?: Exchanged['headers']; error?: string }) =>
      this.#hooks.onAttempt?.({
        method: call.method,
        url: call.url.href,
        attempt,
        ms: elapsedMs(started),
        ...event,
        ...(event.status !== undefined ? { sent: true } : tracker ? { sent: tracker.written } : {}),
      });
    const started = process.hrtime.bigint();
    const tracker: SendTracker | undefined =
      context.idempotencyKey === undefined ? undefined : { written: false };
    let response: Exchanged;
    try {
      response = await this.#exchange(call, context, tracker);
    } catch (error) {
      const failure =
        error instanceof LeadError ? error : networkErrorFor(error, call.url, context.timeoutMs);
      report({ error: failure?.message ?? (error instanceof Error ? error.message : String(error)) });
      if (failure instanceof NetworkError) {
        if (tracker?.written && failure.kind !== 'tls')
          return { kind: 'network', error: mayHaveRun(failure, call.method, call.url), final: true };
        return { kind: 'network', error: failure };
      }
      throw failure ?? unexpectedFailure(error, call.url);
    }
    const { status, headers, text } = response;
    context.state.headers = headers;
    report({ status, headers });
    this.#noticeDeprecation(headers);
    const raw: RawResponse = { status, body: text, contentType: firstHeader(headers, 'content-type') };
    if (status >= 200 && status < 300) return { kind: 'success', value: call.parse(raw) };
    if (status >= 300 && status < 400)
      throw redirectError(status, firstHeader(headers, 'location'), call.url);
    const retryAfterHeader = firstHeader(headers, 'retry-after');
    if (status === 429) return { kind: 'rate-limited', response: raw, retryAfterHeader };
    if (status >= 500) return { kind: 'server-error', response: raw, retryAfterHeader };
    throw clientErrorFor(raw, call.url);
  }

  /** One request under a deadline; the caller's abort wins and is rethrown. */
  async #exchange<T>(
    call: Call<T>,
    context: { signal: AbortSignal | undefined; timeoutMs: number; idempotencyKey?: string | undefined },
    tracker: SendTracker | undefined,
  ): Promise<Exchanged> {
    const { signal, timeoutMs, idempotencyKey } = context;
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('deadline'));
    }, timeoutMs);
    let headers = this.#headers;
    if (call.body !== undefined) headers = { ...headers, 'content-type': 'application/json' };
    if (idempotencyKey !== undefined) headers = { ...headers, 'idempotency-key': idempotencyKey };
    try {
      return await exchange({
        method: call.method,
        url: call.url,
        headers,
        body: call.body,
        timeoutMs,
        maxBodyBytes: this.#maxBodyBytes,
        dispatcher: this.#dispatcher,
        signal: controller.signal,
        tracker,
      });
    } catch (error) {
      if (signal?.aborted) throw abortErrorFor(signal.reason ?? error);
      if (timedOut) throw networkErrorFor({ code: 'ETIMEDOUT' }, call.url, timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Every error of a call says which request, after how many attempts, and what the server asked. */
  #annotate(error: unknown, call: Call<unknown>, state: CallState): unknown {
    if (!(error instanceof LeadError)) return error;
    error.url ??= call.url.href;
    error.attempts ??= state.attempts;
    if (state.headers) error.headers ??= flatHeaders(state.headers);
    if (error.retryAfterMs === undefined) {
      const now = this.#clock.now();
      const at =
        error instanceof RateLimitedError && error.resetAt
          ? error.resetAt.getTime()
          : parseRetryAfterHeader(state.headers && firstHeader(state.headers, 'retry-after'), now);
      if (at !== undefined) error.retryAfterMs = Math.max(0, at - now);
    }
    return error;
  }

  #noticeDeprecation(headers: Record<string, string | string[] | undefined>): void {
    if (this.#deprecationReported || !this.#hooks.onDeprecation) return;
    // Every header of the response together: the notice's words and the sunset date are the useful part.
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

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function firstHeader(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Milliseconds since `started` (process.hrtime: node:perf_hooks would cost a module load per run). */
function elapsedMs(started: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - started) / 1e6);
}
