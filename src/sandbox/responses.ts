// Answers, the one error body ({"error": {"code", "message", ...details}}, message a sentence for humans),
// and the only code here that touches node:http streams: reading bodies and writing answers.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function ok(body: unknown, headers?: Record<string, string>): ApiResponse {
  return { status: 200, body, ...(headers && { headers }) };
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
  headers?: Record<string, string>,
): ApiResponse {
  return { status, body: { error: { code, message, ...details } }, ...(headers && { headers }) };
}

export interface FieldProblem {
  field: string;
  reason: string;
}

/** 422 naming every problem; `field` is the first one, for clients that show only one. */
export function validationError(problems: FieldProblem[]): ApiResponse {
  const message = problems.map((problem) => `${problem.field} ${problem.reason}`).join('; ');
  return errorResponse(422, 'validation_failed', `Invalid request: ${message}.`, {
    field: problems[0]?.field,
    details: problems,
  });
}

/** Shows what the client sent without letting a huge or hostile value flood the message. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Bodies above this are refused with 413. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Up to this, an oversized body is read and thrown away so the client can still read the 413. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

type BodyReading =
  | { kind: 'ok'; text: string }
  | { kind: 'too-large'; closeAfter: boolean }
  | { kind: 'aborted' };

export function readBody(req: IncomingMessage): Promise<BodyReading> {
  // The client may have gone already, before anyone listened for 'close'.
  if (req.destroyed) return Promise.resolve({ kind: 'aborted' });
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve({ kind: 'ok', text: '' });
  }
  if (declared !== undefined && Number(declared) > DRAIN_LIMIT_BYTES) {
    return Promise.resolve({ kind: 'too-large', closeAfter: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (reading: BodyReading) => {
      if (settled) return;
      settled = true;
      resolve(reading);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (received > DRAIN_LIMIT_BYTES) {
        req.pause();
        settle({ kind: 'too-large', closeAfter: true });
      }
    });
    req.on('end', () => {
      if (received > MAX_BODY_BYTES) settle({ kind: 'too-large', closeAfter: false });
      else settle({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

/** `payload`: the body serialised before the latency wait, which includes that work (100 leads take time). */
export function writeJson(
  res: ServerResponse,
  response: ApiResponse,
  closeAfter = false,
  payload = JSON.stringify(response.body),
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(response.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
    'X-Request-Id': `req_${globalThis.crypto.randomUUID()}`,
    ...response.headers,
    ...(closeAfter ? { Connection: 'close' } : {}),
  });
  res.end(payload);
}

/** Splits "/api/v1/leads?page=2" into the path and its query. */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  if (mark === -1) return { path: target, query: new URLSearchParams() };
  return { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}
