// The arithmetic of positions the walk rests on, as pure functions over counts: where a page must
// start and end, how far a cursor carries into a later snapshot, and how many deletions one head read
// can vouch for. Each boundary here has a test that fails when it moves (paginate-positions.test.ts).

/** In the snapshot that reported `total`, every item that existed at the start and sat below `covered` was written. */
export interface Cursor {
  covered: number;
  total: number;
}

/** How many items page `page` must hold in a list of `total`: a full page, or what the total leaves. */
export function expectedLength(total: number, page: number, size: number): number {
  return Math.max(0, Math.min(size, total - (page - 1) * size));
}

/**
 * The cursor carried into a later snapshot of `total` items. An old item moves back by the inserts that
 * survived minus the deletions in front of it, which is at least the change of the total.
 */
export function carry(cursor: Cursor, total: number): number {
  return Math.max(0, cursor.covered + total - cursor.total);
}

export type Judgement =
  /** The page starts past the carried cursor: deletions pulled owed items forward; read the cursor's page. */
  | { kind: 'refused'; cursor: Cursor }
  /** Shorter than its total says, or longer than a page. */
  | { kind: 'odd' }
  /** `skip` leading items stand below the carried cursor: written already, or saved during the run. */
  | { kind: 'accepted'; skip: number; cursor: Cursor; last: boolean };

/** A page of `length` items out of `total`, judged against a cursor from an earlier snapshot. */
export function judgePage(
  cursor: Cursor,
  page: number,
  length: number,
  total: number,
  size: number,
): Judgement {
  const covered = carry(cursor, total);
  const pageStart = (page - 1) * size;
  if (pageStart > covered) return { kind: 'refused', cursor: { covered, total } };
  if (length < expectedLength(total, page, size) || length > size) return { kind: 'odd' };
  const next = { covered: Math.max(covered, pageStart + length), total };
  return {
    kind: 'accepted',
    skip: Math.min(length, covered - pageStart),
    cursor: next,
    // A short page that passed the check above reaches the total: one condition covers both ends.
    last: next.covered >= total,
  };
}

/**
 * How many of the anchor's items were deleted, from one head read: `saved` items now stand in front of
 * the anchor's first page, and the total moved by saves minus deletions.
 */
export function deletedSinceAnchor(anchorTotal: number, saved: number, totalNow: number): number {
  return saved - (totalNow - anchorTotal);
}

/**
 * Pages read alongside each other can only have gone wrong when two pages' worth of the anchor's items
 * were deleted (and as many saved): a page of new items with nothing written on it needs that many.
 */
export function windowCertified(deleted: number, size: number): boolean {
  return deleted >= 0 && deleted < 2 * size;
}

/**
 * Where the careful walk resumes after the window, in the head read's snapshot: the `saved` items in
 * front, then the trusted written ones, fewer by what was deleted.
 */
export function cursorAfterHead(
  head: { saved: number; total: number },
  anchorTotal: number,
  trustedUpTo: number,
): Cursor {
  const deleted = Math.max(0, deletedSinceAnchor(anchorTotal, head.saved, head.total));
  return { covered: head.saved + Math.max(0, trustedUpTo - deleted), total: head.total };
}
