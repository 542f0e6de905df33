import { describe, expect, it } from 'vitest';
import { dedupeRows, inputFingerprint, searchKey } from '../../src/batch/validate.js';

const row = (line: number, query: string, location: string, radius?: number) => ({
  line,
  query,
  location,
  ...(radius === undefined ? {} : { radius }),
});

describe('dedupeRows', () => {
  it('treats case, surrounding and repeated spaces as the same search', () => {
    expect(searchKey(row(1, 'Pest  Control', 'New York'))).toBe(
      searchKey(row(2, ' pest control ', 'NEW   york')),
    );
  });

  it('keeps the first of each search in input order and says which line a repeat repeats', () => {
    const { unique, duplicates } = dedupeRows([
      row(2, 'plumber', 'Dallas'),
      row(3, 'roofer', 'Dallas'),
      row(4, 'PLUMBER', 'dallas'),
    ]);
    expect(unique.map((r) => r.line)).toEqual([2, 3]);
    expect(duplicates).toEqual([{ row: row(4, 'PLUMBER', 'dallas'), firstLine: 2 }]);
  });

  it('keeps searches that differ in radius, including an explicit radius vs none', () => {
    const { unique } = dedupeRows([row(2, 'a', 'b'), row(3, 'a', 'b', 10), row(4, 'a', 'b', 20)]);
    expect(unique).toHaveLength(3);
  });
});

describe('inputFingerprint', () => {
  it('is stable for the same searches and changes with any value or the order', () => {
    const rows = [row(2, 'plumber', 'Dallas'), row(3, 'roofer', 'Waco', 5)];
    expect(inputFingerprint(rows)).toBe(
      inputFingerprint([row(9, 'plumber', 'Dallas'), row(10, 'roofer', 'Waco', 5)]),
    );
    expect(inputFingerprint(rows)).not.toBe(inputFingerprint([rows[1]!, rows[0]!]));
    expect(inputFingerprint(rows)).not.toBe(inputFingerprint([rows[0]!, row(3, 'roofer', 'Waco', 6)]));
    expect(inputFingerprint(rows)).not.toBe(inputFingerprint([rows[0]!]));
  });
});
