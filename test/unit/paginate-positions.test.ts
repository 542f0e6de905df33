// Every boundary of the walk's position arithmetic, pinned on both sides: moving one by a single item
// (a `<` for a `<=`, a `+ 1` dropped) fails a test here.
import { describe, expect, it } from 'vitest';
import {
  carry,
  cursorAfterHead,
  deletedSinceAnchor,
  expectedLength,
  judgePage,
  windowCertified,
} from '../../src/api/paging/positions.js';

describe('expectedLength', () => {
  it('is a full page while the total reaches past it, then what is left, never negative', () => {
    expect(expectedLength(250, 2, 100)).toBe(100);
    expect(expectedLength(250, 3, 100)).toBe(50);
    expect(expectedLength(200, 2, 100)).toBe(100);
    expect(expectedLength(201, 3, 100)).toBe(1);
    expect(expectedLength(200, 3, 100)).toBe(0);
    expect(expectedLength(150, 3, 100)).toBe(0);
  });
});

describe('carry', () => {
  it('moves the cursor by the change of the total, and never below 0', () => {
    expect(carry({ covered: 100, total: 250 }, 250)).toBe(100);
    expect(carry({ covered: 100, total: 250 }, 253)).toBe(103);
    expect(carry({ covered: 100, total: 250 }, 248)).toBe(98);
    expect(carry({ covered: 10, total: 250 }, 240)).toBe(0);
    expect(carry({ covered: 10, total: 250 }, 230)).toBe(0);
  });
});

describe('judgePage', () => {
  const cursor = { covered: 200, total: 1000 };

  it('accepts the page that starts exactly at the carried cursor, and refuses the one a single item past it', () => {
    expect(judgePage(cursor, 3, 100, 1000, 100)).toEqual({
      kind: 'accepted',
      skip: 0,
      cursor: { covered: 300, total: 1000 },
      last: false,
    });
    // Deleted one: the cursor carries to 199, page 3 starts at 200.
    expect(judgePage(cursor, 3, 100, 999, 100)).toEqual({
      kind: 'refused',
      cursor: { covered: 199, total: 999 },
    });
  });

  it('skips what stands below the carried cursor', () => {
    const judged = judgePage(cursor, 3, 100, 1003, 100);
    expect(judged).toEqual({ kind: 'accepted', skip: 3, cursor: { covered: 300, total: 1003 }, last: false });
    const behind = judgePage(cursor, 2, 100, 1000, 100);
    expect(behind).toEqual({
      kind: 'accepted',
      skip: 100,
      cursor: { covered: 200, total: 1000 },
      last: false,
    });
    const farBehind = judgePage({ covered: 450, total: 1000 }, 2, 100, 1000, 100);
    expect(farBehind).toMatchObject({ kind: 'accepted', skip: 100, cursor: { covered: 450, total: 1000 } });
  });

  it('calls a page one item short, or one item too long, odd; exactly full is fine', () => {
    expect(judgePage(cursor, 3, 99, 1000, 100)).toEqual({ kind: 'odd' });
    expect(judgePage(cursor, 3, 101, 1000, 100)).toEqual({ kind: 'odd' });
    expect(judgePage({ covered: 200, total: 250 }, 3, 49, 250, 100)).toEqual({ kind: 'odd' });
    expect(judgePage({ covered: 200, total: 250 }, 3, 50, 250, 100)).toMatchObject({
      kind: 'accepted',
      last: true,
    });
    // A last page may hold more than the total leaves (a save landed), up to a page.
    expect(judgePage({ covered: 200, total: 250 }, 3, 51, 250, 100)).toMatchObject({
      kind: 'accepted',
      last: true,
    });
  });

  it('is the last page when short, or when it reaches the total exactly; not one item before', () => {
    expect(judgePage({ covered: 900, total: 1000 }, 10, 100, 1000, 100)).toMatchObject({
      kind: 'accepted',
      last: true,
    });
    expect(judgePage({ covered: 900, total: 1001 }, 10, 100, 1001, 100)).toMatchObject({
      kind: 'accepted',
      last: false,
    });
    expect(judgePage({ covered: 0, total: 5 }, 1, 5, 5, 100)).toMatchObject({ kind: 'accepted', last: true });
  });
});

describe('certifying the window', () => {
  it('counts deletions as items saved in front minus the growth of the total', () => {
    expect(deletedSinceAnchor(1000, 5, 1003)).toBe(2);
    expect(deletedSinceAnchor(1000, 0, 1000)).toBe(0);
    expect(deletedSinceAnchor(1000, 0, 1001)).toBe(-1);
  });

  it('vouches for up to two pages of deletions less one, not for two pages', () => {
    expect(windowCertified(0, 100)).toBe(true);
    expect(windowCertified(199, 100)).toBe(true);
    expect(windowCertified(200, 100)).toBe(false);
    expect(windowCertified(-1, 100)).toBe(false);
  });

  it('resumes after the saved items and the trusted ones, fewer by what was deleted', () => {
    expect(cursorAfterHead({ saved: 5, total: 1003 }, 1000, 300)).toEqual({ covered: 303, total: 1003 });
    expect(cursorAfterHead({ saved: 0, total: 1001 }, 1000, 300)).toEqual({ covered: 300, total: 1001 });
    expect(cursorAfterHead({ saved: 5, total: 500 }, 1000, 300)).toEqual({ covered: 5, total: 500 });
  });
});
