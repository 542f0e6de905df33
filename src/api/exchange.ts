// One HTTP exchange: the request sent, the body read to its end under a cap, all under a deadline;
// and, for a request that must not be repeated blindly, whether any byte of it was handed to a socket.
//
// undici calls a handler's onRequestStart (onConnect in its older API) right before it writes the
// request on a connected socket (client-h1.js writeH1). A failure before that (refused, DNS, TLS
// handshake, connect timeout, a keep-alive socket found closed, which undici itself re-queues) proves
// the server never saw the request; after it, a reset or a timeout leaves it unknown.
import { type Dispatcher, request } from 'undici';
import { ACCEPT_ENCODING, readBodyCapped } from './parse-response.js';

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
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
  signal: AbortSignal;
  tracker?: SendTracker | undefined;
}

/** Throws undici's own errors; the caller sorts them (a deadline arrives as the signal's abort). */
export async function exchange(call: ExchangeRequest): Promise<Exchanged> {
  const dispatcher = call.tracker ? tracking(call.dispatcher, call.tracker) : call.dispatcher;
  const res = await request(call.url, {
    dispatcher,
    method: call.method as Dispatcher.HttpMethod,
    headers: { ...call.headers, 'accept-encoding': ACCEPT_ENCODING },
    ...(call.body === undefined ? {} : { body: call.body }),
    signal: call.signal,
    // undici's own timeouts are a backstop; the caller's deadline is the real one.
    headersTimeout: call.timeoutMs,
    bodyTimeout: call.timeoutMs,
  });
  // Read every body, errors included, or the connection is not returned to the pool.
  const text = await readBodyCapped(res, call.maxBodyBytes);
  return { status: res.statusCode, headers: res.headers, text };
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
