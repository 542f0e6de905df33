// The options of `leadctl search`, as commander parses them: shared by the one-search and batch runs.
import type { OutputFlags } from './options.js';

export interface SearchFlags extends OutputFlags {
  location?: string;
  radius?: number;
  input?: string;
  unique?: boolean;
  maxRequests?: number;
  resume?: boolean;
  /** With --resume: send again the searches a stopped batch sent without an answer. */
  resendUnknown?: boolean;
  /** Validate and count the batch, send nothing. */
  dryRun?: boolean;
  concurrency?: number;
  /** Remembered searches (src/sync/search-memory.ts); cache in milliseconds. */
  db?: string;
  newOnly?: boolean;
  cache?: number;
  exclude?: string;
}

/** --db, --new-only, --cache or --exclude: the run loads src/sync/search-memory.ts (and maybe node:sqlite). */
export function remembersSearches(flags: SearchFlags): boolean {
  return (
    flags.db !== undefined ||
    Boolean(flags.newOnly) ||
    flags.cache !== undefined ||
    flags.exclude !== undefined
  );
}
