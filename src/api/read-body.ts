// Reading a response body with a ceiling: a body larger than the cap (or one that never ends) fails
// once the cap is reached, with at most the cap held in memory, instead of growing without bound.

import type { Dispatcher } from 'undici';
import { ProtocolError, UsageError } from './errors.js';

/** A page of 100 leads is about 30 KB: this leaves room for any real page and stops a runaway body. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The cap from the client option, else LEADCTL_MAX_BODY_BYTES, else the default. */
export function maxBodyBytesFrom(option: number | undefined, env: string | undefined): number {
  if (option !== undefined) {
    if (Number.isSafeInteger(option) && option >= 1) return option;
    throw new UsageError(`maxBodyBytes must be a whole number of bytes, 1 or more (got ${option})`);
  }
  if (env === undefined || env.trim() === '') return DEFAULT_MAX_BODY_BYTES;
  const bytes = /^\s*\d+\s*$/.test(env) ? Number(env) : Number.NaN;
  if (Number.isSafeInteger(bytes) && bytes >= 1) return bytes;
  throw new UsageError(
    `LEADCTL_MAX_BODY_BYTES must be a whole number of bytes, 1 or more: "${env.slice(0, 40)}"`,
    `unset it for the default of ${DEFAULT_MAX_BODY_BYTES} bytes (16 MiB)`,
  );
}

/** The whole body as text (UTF-8, a leading byte-order mark dropped, as undici's text() does). */
export async function readBodyCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    response.body.destroy();
    throw tooLarge(response.statusCode, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      // Stop reading: the connection is closed rather than drained.
      response.body.destroy();
      throw tooLarge(response.statusCode, maxBytes);
    }
    chunks.push(chunk);
  }
  const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}

function tooLarge(status: number, maxBytes: number): ProtocolError {
  return new ProtocolError(
    `server answered ${status} with a body larger than ${describeBytes(maxBytes)}; leadctl stopped reading it`,
    'if such answers are expected, raise the limit: LEADCTL_MAX_BODY_BYTES=<bytes>',
  );
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
