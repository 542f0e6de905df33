// Newline-delimited JSON-RPC as the SDK's StdioServerTransport does it, in two stages so that a start
// loads no SDK (docs/performance.md, "Start-up"); the SDK's Server, once loaded, is told of the initialize
// answered early. allAnswered(): a client may close stdin right after its last requests (an interrupted
// search would waste quota); a cancelled request gets no answer (the protocol says so).
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../api/http-errors.js';

type RequestId = string | number;
type Parse = (line: string) => JSONRPCMessage;

/** What a message needs no SDK for: `{ result }` to answer a request, `{}` for a notification. */
export type EarlyAnswer = (message: Record<string, unknown>) => { result?: unknown } | undefined;

/** The SDK's limit on the bytes of one line. */
const MAX_LINE = 10 * 1024 * 1024;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #buffer: Buffer | undefined;
  #started = false;
  #parse: Parse | undefined;
  #loading: Promise<void> | undefined;
  /** Lines read while the SDK loads. */
  readonly #waiting: string[] = [];
  /** The initialize answered early, told to the SDK's Server once it is loaded. */
  #initialize: JSONRPCMessage | undefined;
  #unsent: RequestId | undefined;
  readonly #unanswered = new Set<RequestId>();
  #onIdle: (() => void) | undefined;

  /** `load` connects the SDK's Server to this transport and gives the SDK's parser of a line. */
  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly early: EarlyAnswer,
    private readonly load: () => Promise<Parse>,
  ) {}

  /** Starts reading stdin; the SDK's connect() calls it again, which does nothing. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.stdin.on('data', this.#ondata);
    this.stdin.on('error', this.#onerror);
  }

  readonly #onerror = (error: Error) => this.onerror?.(error);

  readonly #ondata = (chunk: Buffer) => {
    if ((this.#buffer?.length ?? 0) + chunk.length > MAX_LINE) {
      this.#buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_LINE} bytes`));
      void this.close();
      return;
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
    for (let end = this.#buffer.indexOf('\n'); end !== -1; end = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.#buffer = this.#buffer.subarray(end + 1);
      this.#line(line);
    }
  };

  #line(line: string): void {
    if (this.#parse) {
      this.#receive(line);
      return;
    }
    if (this.#loading) {
      this.#waiting.push(line);
      return;
    }
    const message = parseObject(line);
    const answer = message && this.early(message);
    if (!message || !answer) {
      this.#waiting.push(line);
      this.#loading = this.#handOver();
      return;
    }
    if (message.method === 'initialize') this.#initialize = message as JSONRPCMessage;
    // In the SDK's order of fields.
    if ('result' in answer)
      void this.send({ result: answer.result, jsonrpc: '2.0', id: message.id } as never);
  }

  async #handOver(): Promise<void> {
    this.#parse = await this.load();
    if (this.#initialize && 'id' in this.#initialize) {
      this.#unsent = this.#initialize.id;
      this.#receiveMessage(this.#initialize);
    }
    for (const line of this.#waiting.splice(0)) this.#receive(line);
  }

  #receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = (this.#parse as Parse)(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.#receiveMessage(message);
  }

  #receiveMessage(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) this.#unanswered.add(message.id);
    this.onmessage?.(message);
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.#answered(id);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const answers = !('method' in message) && 'id' in message ? message.id : undefined;
    if (answers === undefined || answers !== this.#unsent) {
      const json = `${JSON.stringify(message)}\n`;
      if (!this.stdout.write(json)) await new Promise((resolve) => this.stdout.once('drain', resolve));
    } else this.#unsent = undefined;
    if (answers !== undefined) this.#answered(answers);
  }

  #answered(id: RequestId): void {
    this.#unanswered.delete(id);
    if (this.#unanswered.size === 0) this.#onIdle?.();
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.#ondata);
    this.stdin.off('error', this.#onerror);
    // Paused only when nothing else reads stdin.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.#buffer = undefined;
    this.onclose?.();
  }

  async allAnswered(): Promise<void> {
    await this.#loading;
    if (this.#unanswered.size === 0) return;
    await new Promise<void>((resolve) => {
      this.#onIdle = resolve;
    });
  }
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
