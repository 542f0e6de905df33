// The ledger file's shape, checked on every read: anything else (a hand edit, a crash of another
// program, a newer format) is treated as no ledger, and the next write starts a new one.
//
// { "version": 1, "entries": [ { "profile": "default", "baseUrl": "https://host/api/v1/",
//   "days": { "2026-11-23": { "requests": 42, "searches": 3, "rateLimited": 0 } },
//   "months": { "2026-11": { "requests": 1234, "searches": 17, "rateLimited": 1 } } } ] }
import * as z from 'zod/mini';

const COUNT = z.int().check(z.minimum(0));

const COUNTS = z.object({ requests: COUNT, searches: COUNT, rateLimited: COUNT });

const ENTRY = z.object({
  profile: z.string(),
  /** The API root (`https://host/api/v1/`), or `sandbox` for the in-process sandbox of --sandbox. */
  baseUrl: z.string(),
  days: z.record(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), COUNTS),
  months: z.record(z.string().check(z.regex(/^\d{4}-\d{2}$/)), COUNTS),
});

export const LEDGER = z.object({ version: z.literal(1), entries: z.array(ENTRY) });

export type Counts = z.infer<typeof COUNTS>;
export type LedgerEntry = z.infer<typeof ENTRY>;
export type Ledger = z.infer<typeof LEDGER>;

export function zeroCounts(): Counts {
  return { requests: 0, searches: 0, rateLimited: 0 };
}

export function emptyLedger(): Ledger {
  return { version: 1, entries: [] };
}
