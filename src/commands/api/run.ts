// `leadctl api <path>`: one raw request (or every page with --paginate) through every command's client. The
// body goes to stdout as sent; on a terminal, with control characters escaped and the key masked.

import { UsageError } from '../../api/errors.js';
import { parseJsonLossless } from '../../api/exact-json-parser.js';
import { rawApiUrl, rawPages } from '../../api/raw-request.js';
import { openOutput } from '../../output/destination.js';
import { prettyJson } from '../../output/json-text.js';
import { type CommandContext, openSession } from '../../session.js';
import { maskApiKey } from '../../text/secrets.js';
import { UNSAFE_FOR_TERMINAL, visibleEscape } from '../../text/terminal-text.js';
import { colorAllowed } from '../../ui/ui.js';
import type { ApiFlags, Field } from './command.js';

export async function runApi(path: string, flags: ApiFlags, ctx: CommandContext): Promise<void> {
  const fields = [...flags.field, ...flags.rawField];
  const method = flags.method ?? (fields.length > 0 ? 'POST' : 'GET');
  if (flags.paginate && method !== 'GET') {
    throw new UsageError(`--paginate sends GET requests, not ${method}`, 'drop -X, or drop --paginate');
  }
  const inQuery = method === 'GET' || method === 'HEAD';
  const body = !inQuery && fields.length > 0 ? jsonBody(fields) : undefined;

  const session = await openSession(ctx);
  const output = await openOutput({ stdout: ctx.io.stdout });
  try {
    const query = inQuery ? fields.map(({ key, value }): [string, string] => [key, value]) : [];
    const url = rawApiUrl(session.client.apiRoot, path, query);
    const shown = ctx.io.stdout.isTTY
      ? forTerminal(session.settings.apiKey, colorAllowed(ctx))
      : (text: string) => text;
    if (flags.paginate) {
      await writePages(output, rawPages(session.client, url, ctx.signal), shown);
    } else {
      const answer = await session.client.request(method, url, {
        ...(body === undefined ? {} : { body }),
        signal: ctx.signal,
      });
      await output.write(shown(answer.body));
      // A prompt glued to the body's last line helps nobody; a pipe gets the bytes as sent.
      if (ctx.io.stdout.isTTY && answer.body !== '' && !answer.body.endsWith('\n')) await output.write('\n');
    }
    await output.commit();
  } catch (error) {
    await output.abandon();
    throw error;
  } finally {
    await session.close();
  }
}

/** `[`, items joined by `,\n`, `]`: the json format of every command. Closed even when a page fails. */
async function writePages(
  output: Awaited<ReturnType<typeof openOutput>>,
  pages: AsyncIterable<{ items: string[] }>,
  shown: (text: string) => string,
): Promise<void> {
  let count = 0;
  let started = false;
  try {
    for await (const page of pages) {
      if (!started) await output.write('[');
      started = true;
      for (const item of page.items) {
        await output.write(`${count === 0 ? '\n' : ',\n'}${shown(item)}`);
        count += 1;
      }
    }
  } finally {
    if (started) await output.write(count === 0 ? ']\n' : '\n]\n');
  }
}

// JSON indented (and coloured) as the json format is on a terminal, digits as sent; anything else as it came.
// Then escapes for what a terminal would act on, but line breaks and tabs (the body keeps its layout).
function forTerminal(apiKey: string | undefined, color: boolean) {
  return (text: string): string => {
    const pretty = prettyOrUndefined(text, color);
    // In indented JSON every escape character is one of its colours: the data's are \u001b.
    const keep = (char: string) =>
      char === '\n' || char === '\t' || (pretty !== undefined && char === '\u001b');
    const safe = (pretty ?? text).replace(UNSAFE_FOR_TERMINAL, (char) =>
      keep(char) ? char : visibleEscape(char),
    );
    return apiKey ? safe.replaceAll(apiKey, maskApiKey(apiKey)) : safe;
  };
}

function prettyOrUndefined(text: string, color: boolean): string | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return prettyJson(parseJsonLossless(text), color);
  } catch {
    return undefined;
  }
}

/** A JSON object in the fields' order; integers keep their digits exactly, however long. */
export function jsonBody(fields: readonly Field[]): string {
  const seen = new Set<string>();
  const members = fields.map(({ key, value, typed }) => {
    if (seen.has(key)) throw new UsageError(`field "${key}" is given twice`);
    seen.add(key);
    return `${JSON.stringify(key)}:${typed ? typedJson(value) : JSON.stringify(value)}`;
  });
  return `{${members.join(',')}}`;
}

function typedJson(value: string): string {
  if (value === 'true' || value === 'false' || value === 'null') return value;
  if (/^-?(0|[1-9][0-9]*)$/.test(value)) return value;
  return JSON.stringify(value);
}
