// A transport wrapper that knows which requests are still unanswered. A client may write its last
// requests and close our stdin at once; the server must answer them before it closes, or the answers
// are lost (and an interrupted search would have spent quota for nothing). A request the client
// cancels gets no answer (the protocol says so): it stops counting as unanswered when it is cancelled.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type RequestId = string | number;

export class AnswerTrackingTransport implements Transport {
  readonly #inner: Transport;
  readonly #unanswered = new Set<RequestId>();
  #onIdle: (() => void) | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message) this.#unanswered.add(message.id);
      this.onmessage?.(message, extra);
      if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) this.#answered(id);
      }
    };
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.#inner.send(message, options);
    // A response or an error answers the request with the same id.
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.#answered(message.id);
  }

  #answered(id: RequestId): void {
    this.#unanswered.delete(id);
    if (this.#unanswered.size === 0) this.#onIdle?.();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Resolves once every request received so far has been answered. */
  allAnswered(): Promise<void> {
    if (this.#unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#onIdle = resolve;
    });
  }
}
