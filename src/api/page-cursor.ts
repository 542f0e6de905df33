// The position arithmetic behind paginate.ts (its header explains the whole algorithm). Pure functions,
// no I/O, so the proof obligations can be tested one by one.
//
// Model: the list is ordered newest first and that order never changes; new items enter only at the
// front; any item may be removed; an id is never reused; each response is one snapshot of the list, and
// its meta.total counts the list in that snapshot.

/**
 * What the run has proven so far: in the snapshot that reported `total`, every item that existed when
 * the run began and sat at a position below `covered` has been yielded (or lies before the start page).
 */
export interface Cursor {
  covered: number;
  total: number;
}

/**
 * The cursor carried forward to a snapshot taken LATER than the cursor's own one, which reported
 * `laterTotal`. Between the two, old item X moved by (inserts that survived) - (removals ahead of X),
 * which is at least (inserts that survived) - (all removals) = laterTotal - cursor.total. So X can only
 * have moved toward the front by as much as the total shrank; growth never hides anything (it only
 * pushes already-seen items onto later pages, where de-duplication drops them).
 * Not valid for an earlier snapshot: backwards, unseen inserts could have pulled items behind us.
 */
export function coveredAt(cursor: Cursor, laterTotal: number): number {
  return Math.max(0, cursor.covered + Math.min(0, laterTotal - cursor.total));
}

export interface PageSnapshot<T> {
  page: number;
  items: T[];
  total: number;
}

export interface PageVerdict<T> {
  /** False: the page starts past what is proven, so items may have slipped in between. Fetch again. */
  accepted: boolean;
  /** Items to yield, in server order. */
  fresh: T[];
  /** Valid at this page's snapshot. */
  cursor: Cursor;
  /** Everything that existed when the run began has been yielded. */
  done: boolean;
}

/**
 * Judges one page against the cursor; the page's snapshot must be later than the cursor's (or hold the
 * very same list). `isWritten` says whether an item was written earlier in the run (page-yielded.ts);
 * the caller records what it writes. Items without an id cannot be de-duplicated and are kept.
 */
export function judgePage<T>(
  cursor: Cursor,
  snapshot: PageSnapshot<T>,
  pageSize: number,
  isWritten: (item: T) => boolean,
  idOf: (item: T) => string | undefined,
): PageVerdict<T> {
  const covered = coveredAt(cursor, snapshot.total);
  const windowStart = (snapshot.page - 1) * pageSize;
  if (windowStart > covered) {
    return { accepted: false, fresh: [], cursor: { covered, total: snapshot.total }, done: false };
  }
  // Positions below `covered` hold nothing still owed: old items there were yielded already; anything
  // else there was saved during the run, and writing it now would break newest-first order. For the same
  // reason an unwritten item ahead of an already-written one on this page must be new: skip it.
  const written = snapshot.items.map(isWritten);
  const firstOwed = Math.max(covered - windowStart, written.lastIndexOf(true) + 1);
  const onThisPage = new Set<string>();
  const fresh: T[] = [];
  for (let index = Math.max(0, firstOwed); index < snapshot.items.length; index++) {
    const item = snapshot.items[index] as T;
    const id = idOf(item);
    if (id !== undefined) {
      // (Past the last written item nothing is written: only repeats on this page are left to drop.)
      if (onThisPage.has(id)) continue;
      onThisPage.add(id);
    }
    fresh.push(item);
  }
  const windowEnd = windowStart + snapshot.items.length;
  const next: Cursor = { covered: Math.max(covered, windowEnd), total: snapshot.total };
  // A short page reached the end of the list in its snapshot; so does a cursor past the total.
  const done = snapshot.items.length < pageSize || next.covered >= next.total;
  return { accepted: true, fresh, cursor: next, done };
}
