// The options of `leadctl search`, as commander parses them: shared by the one-search and batch runs.
import type { OutputFlags } from './shared-options.js';

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
}
