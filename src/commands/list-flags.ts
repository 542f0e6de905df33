// The options of `leadctl leads` and `leadctl history`, as commander parses them.
import type { OutputFlags, PagingFlags } from './options.js';

export interface ExportFlags {
  /** --checkpoint FILE: only what is new since the last run that used FILE. */
  checkpoint?: string;
  /** --max-requests N: stop cleanly once N requests are spent. */
  maxRequests?: number;
  /** --append: add rows to the -o file. */
  append?: boolean;
}

export type ListFlags = OutputFlags & PagingFlags & ExportFlags;
