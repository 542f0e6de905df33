// Reading a response body with a ceiling: a body larger than the cap (or one that never ends) fails
// once the cap is reached, with at most the cap held in memory, instead of growing without bound.
// A gzip or br body is decompressed with the same cap on what it unpacks to: a small bomb is refused
// as surely as a large body.

import type { Dispatcher } from 'undici';
import { ProtocolError, UsageError } from './errors.js';

/** A page of 100 leads is about 30 KB: this leaves room for any real page and stops a runaway body. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What the client asks for; both are in every Node this runs on. */
export const ACCEPT_ENCODING = 'gzip, br';

/** The cap from the client option (checked), else the default. The CLI reads its variable itself. */
export function maxBodyBytesFrom(option: number | undefined): number {
  if (option === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (Number.isSafeInteger(option) && option >= 1) return option;
  throw new UsageError(`maxBodyBytes must be a whole number of bytes, 1 or more (got ${String(option)})`);
}

/** LEADCTL_MAX_BODY_BYTES for the CLI: undefined when unset (the library default applies). */
export function maxBodyBytesFromEnv(env: string | undefined): number | undefined {
  if (env === undefined || env.trim() === '') return undefined;
  const bytes = /^\s*\d+\s*$/.test(env) ? Number(env) : Number.NaN;
  if (Number.isSafeInteger(bytes) && bytes >= 1) return bytes;
  throw new UsageError(
    `LEADCTL_MAX_BODY_BYTES must be a whole number of bytes, 1 or more: "${env.slice(0, 40)}"`,
    `unset it for the default of ${DEFAULT_MAX_BODY_BYTES} bytes (16 MiB)`,
  );
}

const noop = () => {};

/** The whole body as text (UTF-8, a leading byte-order mark dropped, as undici's text() does). */
export async function readBodyCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  // A body destroyed before its end emits 'error' (RequestAbortedError); with no listener that would
  // be an unhandled 'error' event and end the host process. Our own failure is what the caller sees.
  response.body.on('error', noop);
  const encoding = contentEncoding(response.headers['content-encoding']);
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
  const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  const body = encoding === 'identity' ? raw : await decompress(raw, encoding, response.statusCode, maxBytes);
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}

type Encoding = 'identity' | 'gzip' | 'br' | 'deflate';

function contentEncoding(header: string | string[] | undefined): Encoding {
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'br') return 'br';
  if (value === 'deflate') return 'deflate';
  throw new ProtocolError(
    `the server answered with a body encoded as "${value.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}", which leadctl did not ask for (it accepts gzip and br)`,
  );
}

/** zlib is loaded only when a server compresses: a one-page run against one that does not pays nothing. */
async function decompress(
  raw: Buffer,
  encoding: Exclude<Encoding, 'identity'>,
  status: number,
  maxBytes: number,
) {
  const zlib = await import('node:zlib');
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
      // maxOutputLength stops zlib as soon as the output would pass the cap: a bomb never unpacks.
      const options = { maxOutputLength: maxBytes };
      if (encoding === 'gzip') zlib.gunzip(raw, options, done);
      else if (encoding === 'br') zlib.brotliDecompress(raw, options, done);
      else zlib.inflate(raw, options, done);
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw tooLarge(status, maxBytes, ` once decompressed (${encoding})`);
    }
    throw new ProtocolError(
      `server answered ${status} with a ${encoding} body that could not be decompressed (${(error as Error).message})`,
    );
  }
}

function tooLarge(status: number, maxBytes: number, how = ''): ProtocolError {
  return new ProtocolError(
    `server answered ${status} with a body larger than ${describeBytes(maxBytes)}${how}; leadctl stopped reading it`,
    'if such answers are expected, raise the limit: LEADCTL_MAX_BODY_BYTES=<bytes>',
  );
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
