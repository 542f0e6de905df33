// What a tool call answers: structured content (server data, passed as data) beside a short text
// summary, or an isError result in the CLI's own words. Nothing here lets the API key or a raw control
// character through: summaries and error texts go through the sanitizer of server messages, and every
// string of a result is checked for the key.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LeadClient } from '../api/client.js';
import { asSent, ExactNumber } from '../api/exact-number.js';
import { oneLine } from '../api/server-message.js';
import { errorLines } from '../ui/error-lines.js';
import type { UsageSource } from '../usage/report.js';
import type { RequestBudget } from './budget.js';

export type ToolResult = CallToolResult;

/** What every tool runs on: the session's client, its request budget, and the key's mask. */
export interface ToolDeps {
  client: LeadClient;
  budget: RequestBudget;
  mask: KeyMasker;
  /** The session's usage ledger, for the usage tool. */
  usage: UsageSource;
}

/** Masks the key wherever it occurs (a hostile server can echo it back in any field). */
export type KeyMasker = (text: string) => string;

export const REDACTED_KEY = '[redacted API key]';

export function keyMasker(apiKey: string | undefined): KeyMasker {
  if (!apiKey) return (text) => text;
  return (text) => (text.includes(apiKey) ? text.split(apiKey).join(REDACTED_KEY) : text);
}

/** The lines the CLI prints for an error (cli.ts): `leadctl: <message>`, then the hint. */
export function errorResult(error: unknown, mask: KeyMasker): ToolResult {
  return { isError: true, content: [{ type: 'text', text: safeText(errorLines(error).join('\n'), mask) }] };
}

export function successResult(summary: string, data: Record<string, unknown>, mask: KeyMasker): ToolResult {
  return {
    content: [{ type: 'text', text: safeText(summary, mask) }],
    structuredContent: plainJson(data, mask) as Record<string, unknown>,
  };
}

/**
 * Each line with its control characters shown as \xNN, so no escape sequence survives. (oneLine, not
 * output/sanitize.ts: that module lives in the output chunks, and sharing it would split them for
 * every other command.)
 */
export function safeText(text: string, mask: KeyMasker): string {
  return text
    .split('\n')
    .map((line) => mask(oneLine(line, Number.POSITIVE_INFINITY)))
    .join('\n');
}

/**
 * Server data as plain JSON for the protocol: strings are kept as sent (they are data, not text to
 * print) but masked; an ExactNumber becomes a number, or its digits as a string where a number would
 * change them (an id beyond 2^53).
 */
function plainJson(value: unknown, mask: KeyMasker): unknown {
  if (typeof value === 'string') return mask(value);
  if (value instanceof ExactNumber) {
    const n = Number(value.digits);
    return /^-?\d+$/.test(value.digits) && !Number.isSafeInteger(n) ? value.digits : n;
  }
  if (Array.isArray(value)) return value.map((item) => plainJson(item, mask));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // An item as the server sent it (no nulls for fields it left out), as the CLI writes it.
    for (const [key, inner] of Object.entries(asSent(value))) out[mask(key)] = plainJson(inner, mask);
    return out;
  }
  return value;
}
