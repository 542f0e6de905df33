// Which pages the next round of paginate.ts asks for: from the page holding the first position not yet
// proven covered, at most `width` pages, none past the list's end or past what `maxItems` still needs.

import { type Cursor, coveredAt } from './page-cursor.js';

export interface RoundPlan {
  /** Consecutive page numbers; empty when everything is already covered. */
  pages: number[];
}

/**
 * `laterTotal` is the total of a snapshot taken after the cursor's (a head probe); when given, the
 * cursor is carried forward to it first.
 */
export function planRound(
  cursor: Cursor,
  pageSize: number,
  width: number,
  remainingItems: number,
  laterTotal?: number,
): RoundPlan {
  const total = laterTotal ?? cursor.total;
  const covered = laterTotal === undefined ? cursor.covered : coveredAt(cursor, laterTotal);
  if (covered >= total || remainingItems <= 0) return { pages: [] };
  const first = Math.floor(covered / pageSize) + 1;
  const lastByTotal = Math.ceil(total / pageSize);
  // Assumes every owed item is fresh; de-duplication may leave us short, and then a next round follows.
  const lastByItems = Math.ceil((covered + remainingItems) / pageSize);
  const last = Math.max(first, Math.min(first + width - 1, lastByTotal, lastByItems));
  return { pages: Array.from({ length: last - first + 1 }, (_, index) => first + index) };
}
