// The sandbox's options, what it records, and the resources it serves, derived from api/schemas.ts: a field
// added there fails to compile here until the sandbox serves it. Type imports only: the bundle loads no api/.
import type * as z from 'zod/mini';
import type { HistoryEntrySchema, JsonNumber, LeadSchema, SearchResultSchema } from '../api/schemas.js';

// Every field the spec names, in its order; numeric fields are numbers, the rest strings. `Nullable` fields
// may be null, `Absent` ones left out (the spec leaves nullability open).
type Served<
  Schema extends { shape: object },
  Nullable extends string = never,
  Absent extends string = never,
> = {
  -readonly [K in Exclude<keyof Schema['shape'], Absent>]: ServedField<Schema, K, Nullable>;
} & { -readonly [K in Extract<keyof Schema['shape'], Absent>]?: ServedField<Schema, K, Nullable> };

type ServedField<Schema extends { shape: object }, K extends keyof Schema['shape'], Nullable extends string> =
  | (NonNullable<z.output<Schema['shape'][K]>> extends JsonNumber ? number : string)
  | (K extends Nullable ? null : never);

type Contact = 'phone' | 'website';
export type Lead = Served<typeof LeadSchema, Contact | 'rating', Contact>;
export type HistoryEntry = Served<typeof HistoryEntrySchema>;
export type SearchResult = Served<typeof SearchResultSchema, Contact | 'rating', Contact>;

export type SandboxPlan = 'free' | 'pro' | 'agency';
export type SandboxVariant = 'a' | 'b';

export interface SandboxOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Which plan's key is "the" key (`apiKey`). Default 'agency'. */
  plan?: SandboxPlan;
  /** Which published plan table applies. Default 'b'. */
  variant?: SandboxVariant;
  /** Pre-saved leads. Default 300. */
  leads?: number;
  /** Pre-existing history entries. Default 40. */
  history?: number;
  /** Delay added to every request. Default 0. */
  latencyMs?: number;
  /** 0..1: probability of a 500 with a JSON error body. Default 0. */
  failRate?: number;
  /** 0..1: probability of destroying the socket without answering. Default 0. */
  resetRate?: number;
  /** Everything generated (leads, history, results, chaos) follows from it. Default 1. */
  seed?: number;
  /** Some names, categories and queries carry formula starts, quotes, newlines and escape sequences. */
  hostileData?: boolean;
  /** Clock for counters, resets, cache expiry and timestamps. Default Date.now. */
  now?: () => number;
  /** Overrides every plan's daily request limit (tests). */
  dailyLimit?: number;
  /** Overrides every plan's monthly live-search allowance (tests). */
  liveSearchLimit?: number;
  /** Keep every request in `requests` (default true); a long-running `leadctl sandbox` turns it off. */
  recordRequests?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Status answered; 0 when the socket was destroyed without an answer (resetRate). */
  status: number;
  authorization?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it was not JSON; absent when there was no body. */
  body?: unknown;
}

export type RequestHook = (request: RecordedRequest) => void | Promise<void>;

export type SandboxKeys = Record<SandboxPlan | 'deactivated', string>;
