// LeadClient: the thin HTTP layer. One undici Agent (keep-alive pool), the key on every request, a
// deadline per attempt, every body read to the end, and the retry policy of retry.ts around it all.

import { Agent, request } from 'undici';
import { type Clock, systemClock } from './clock.js';
import { ExitCode, LeadError, NetworkError, UsageError } from './errors.js';
import { clientErrorFor, networkErrorFor, redirectError } from './http-errors.js';
import { flattenPages, type ListAllOptions, listAllPages } from './paging/index.js';
import { parseHistoryPage, parseLeadsPage, parseSearchResponse, type RawResponse } from './parse-response.js';
import { maxBodyBytesFrom, readBodyCapped } from './read-body.js';
import { type AttemptOutcome, type RetryPolicy, type WaitEvent, withRetries } from './retry.js';
import type { HistoryEntry, HistoryPage, Lead, LeadsPage, SearchResponse } from './schemas.js';
import { oneLine } from './server-message.js';
import { apiUrl, assertKeyTransportIsSafe, resolveApiRoot } from './url.js';

export type { ListAllOptions } from './paging/index.js';
export type { WaitEvent } from './retry.js';

export interface AttemptEvent {
  method: string;
  /** Never contains the key: it travels only in the Authorization header. */
  url: string;
  /** 1-based. */
  attempt: number;
  status?: number;
  ms: number;
  error?: string;
}

export interface ClientHooks {
  /** Right before each HTTP attempt is sent; a throw (a LeadError) refuses it, and nothing is sent. */
  beforeAttempt?(event: { method: string; url: string; attempt: number }): void;
  onAttempt?(event: AttemptEvent): void;
  onWait?(event: WaitEvent): void;
  /** Called at most once per client: the first response that carries any deprecation header. */
  onDeprecation?(event: DeprecationEvent): void;
}

/** The deprecation headers of one response, each one line of server text (sanitized, capped). */
export interface DeprecationEvent {
  /** `Deprecation`: `true`, `?1`, `@<unix seconds>` or an HTTP date. */
  deprecation?: string;
  /** `Sunset`: an HTTP date (RFC 8594), when the API stops answering. */
  sunset?: string;
  /** `X-Api-Deprecation-Notice`: the server's own words to its users. */
  notice?: string;
}

export interface LeadClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per attempt, headers and body together. Default 30 000. */
  timeoutMs?: number;
  /** Retries for 5xx and network failures. Default 3. */
  retries?: number;
  /** Longest single wait on a 429 (or a 503's Retry-After). Default 60 000. */
  maxWaitMs?: number;
  /** Default `leadctl`; the CLI passes `leadctl/<version>`. */
  userAgent?: string;
  hooks?: ClientHooks;
  clock?: Clock;
  /** For backoff jitter. Default Math.random. */
  random?: () => number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Connections per origin. Default 16. */
  connections?: number;
  /**
   * The largest response body read, in bytes; a larger one fails (ProtocolError) once this much has
   * arrived. Default: LEADCTL_MAX_BODY_BYTES, else 16 MiB (a page of 100 leads is about 30 KB).
   */
  maxBodyBytes?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

const DEPRECATION_HEADERS = {
  deprecation: 'deprecation',
  sunset: 'sunset',
  notice: 'x-api-deprecation-notice',
} as const;

interface Call<T> {
  method: 'GET' | 'POST';
  url: URL;
  body?: string;
  parse: (response: RawResponse) => T;
}

export class LeadClient {
  readonly #root: URL;
  readonly #agent: Agent;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #clock: Clock;
  readonly #hooks: ClientHooks;
  readonly #maxBodyBytes: number;
  #deprecationReported = false;

  constructor(options: LeadClientOptions) {
    this.#root = resolveApiRoot(options.baseUrl);
    assertKeyTransportIsSafe(this.#root);
    const apiKey = options.apiKey.trim();
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
    this.#maxBodyBytes = maxBodyBytesFrom(options.maxBodyBytes, process.env.LEADCTL_MAX_BODY_BYTES);
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
    // The agent's own timeouts are a backstop; the per-attempt deadline below is the real one.
    this.#agent = new Agent({
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

  listLeads(params: { page?: number; limit?: number }, options: RequestOptions = {}): Promise<LeadsPage> {
    const url = apiUrl(this.#root, 'leads', { page: params.page, limit: params.limit });
    return this.#call({ method: 'GET', url, parse: (r) => parseLeadsPage(r, params) }, options.signal);
  }

  listHistory(params: { page?: number; limit?: number }, options: RequestOptions = {}): Promise<HistoryPage> {
    const url = apiUrl(this.#root, 'history', { page: params.page, limit: params.limit });
    return this.#call({ method: 'GET', url, parse: (r) => parseHistoryPage(r, params) }, options.signal);
  }

  /**
   * POST /search is retried like the GETs: from our side it is idempotent (the same query again), and
   * a repeat is most likely answered from the server's cache, so it costs no extra live search.
   */
  search(
    params: { query: string; location: string; radius?: number },
    options: RequestOptions = {},
  ): Promise<SearchResponse> {
    const { query, location, radius } = params;
    const body = JSON.stringify({ query, location, ...(radius === undefined ? {} : { radius }) });
    const url = apiUrl(this.#root, 'search');
    const parse = (r: RawResponse) => parseSearchResponse(r, params);
    return this.#call({ method: 'POST', url, body, parse }, options.signal);
  }

  /**
   * Every item of a list, newest first, each once, fetched `concurrency` pages at a time: the same
   * paging as `leadctl leads --all`. `since` takes a Date, an ISO date/time or a span like `7d`.
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
    return listAllPages(this, resource, options, this.#clock.now());
  }

  /**
   * Any request under the API root, with the key, the deadline, retries and 429 waits of every call;
   * a 2xx answer comes back as read, any other status as its typed error. For `leadctl api`.
   */
  request(
    method: string,
    url: URL,
    options: { body?: string; signal?: AbortSignal } = {},
  ): Promise<RawResponse> {
    if (!url.href.startsWith(this.#root.href)) {
      throw new UsageError(`${url.origin}${url.pathname} is not under the API root ${this.#root.href}`);
    }
    // Call names the two methods the spec documents; undici sends any method token as given.
    const call: Call<RawResponse> = { method: method as Call<RawResponse>['method'], url, parse: (r) => r };
    if (options.body !== undefined) call.body = options.body;
    return this.#call(call, options.signal);
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  #call<T>(call: Call<T>, signal: AbortSignal | undefined): Promise<T> {
    return withRetries((n) => this.#attempt(call, n, signal), this.#policy, this.#clock, this.#hooks, signal);
  }

  async #attempt<T>(
    call: Call<T>,
    attempt: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome<T>> {
    this.#hooks.beforeAttempt?.({ method: call.method, url: call.url.href, attempt });
    const report = (event: { status?: number; error?: string }) =>
      this.#hooks.onAttempt?.({
        method: call.method,
        url: call.url.href,
        attempt,
        ms: elapsedMs(started),
        ...event,
      });
    const started = process.hrtime.bigint();
    let response: { status: number; headers: Record<string, string | string[] | undefined>; text: string };
    try {
      response = await this.#exchange(call, signal);
    } catch (error) {
      const failure = error instanceof LeadError ? error : networkErrorFor(error, call.url, this.#timeoutMs);
      report({ error: failure?.message ?? (error instanceof Error ? error.message : String(error)) });
      if (failure instanceof NetworkError) return { kind: 'network', error: failure };
      throw failure ?? error;
    }
    const { status, headers, text } = response;
    report({ status });
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

  /** One request, body read to the end, under a deadline; the caller's abort wins and is rethrown. */
  async #exchange<T>(call: Call<T>, signal: AbortSignal | undefined) {
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('deadline'));
    }, this.#timeoutMs);
    try {
      const res = await request(call.url, {
        dispatcher: this.#agent,
        method: call.method,
        headers:
          call.body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
        ...(call.body === undefined ? {} : { body: call.body }),
        signal: controller.signal,
      });
      // Read every body, errors included, or the connection is not returned to the pool.
      const text = await readBodyCapped(res, this.#maxBodyBytes);
      return { status: res.statusCode, headers: res.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timedOut) throw networkErrorFor({ code: 'ETIMEDOUT' }, call.url, this.#timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
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
