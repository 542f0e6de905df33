import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../src/api/exact-number.js';
import { keepFirstPerPlace, labelResult } from '../../src/batch/items.js';
import { failedRowsError, requestCapError, resumeCommand, summaryLine } from '../../src/batch/summary.js';

describe('summaryLine', () => {
  it('reads like the issue asks, with thousands separators', () => {
    expect(summaryLine({ sent: 48, unknown: 0, failed: 1, duplicates: 1, notRun: 0, results: 1130 })).toBe(
      '48 sent, 1 failed, 1 skipped as duplicate; 1,130 results',
    );
  });

  it('says how many searches were not run when the batch stopped', () => {
    expect(summaryLine({ sent: 3, unknown: 0, failed: 0, duplicates: 0, notRun: 7, results: 1 })).toBe(
      '3 sent, 0 failed, 0 skipped as duplicate, 7 not run; 1 result',
    );
  });

  it('counts searches sent without an answer among those sent, and says they may have run', () => {
    expect(summaryLine({ sent: 4, unknown: 2, failed: 0, duplicates: 0, notRun: 3, results: 20 })).toBe(
      '4 sent (2 without an answer: they may have run), 0 failed, 0 skipped as duplicate, 3 not run; 20 results',
    );
  });

  it('ends a batch with refused rows with exit 2 and a request-cap stop with exit 5', () => {
    expect(failedRowsError(1, 50).exitCode).toBe(2);
    const capped = requestCapError(3, 2);
    expect(capped.exitCode).toBe(5);
    expect(capped.message).toBe('stopped at --max-requests 3: 2 searches were not run');
  });

  it('spells the resume command with the output options to repeat, quoted for a shell', () => {
    const shape = {
      format: 'csv' as const,
      fields: ['name', 'phone'],
      header: false,
      sanitize: true,
      unique: true,
    };
    expect(resumeCommand('my searches.csv', "it's.csv", shape)).toBe(
      "leadctl search --input 'my searches.csv' -o 'it'\\''s.csv' --resume --format csv --fields name,phone --no-header --unique",
    );
  });
});

describe('batch items', () => {
  const row = { line: 2, query: 'plumber', location: 'Austin' };

  it('puts the search first and keeps it even when the server sends the same keys', () => {
    const item = labelResult(row, { place_id: 'p1', search_query: 'server', name: 'A' });
    expect(Object.keys(item)).toEqual(['search_query', 'search_location', 'place_id', 'name']);
    expect(item.search_query).toBe('plumber');
  });

  it('--unique keeps the first result per place_id across calls, 64-bit ids included', () => {
    const seen = new Set(['p0']);
    const big = new ExactNumber('9007199254740993');
    const first = keepFirstPerPlace([{ place_id: 'p0' }, { place_id: 'p1' }, { place_id: big }], seen, row);
    const second = keepFirstPerPlace([{ place_id: 'p1' }, { place_id: 'p2' }, { place_id: big }], seen, row);
    expect(first).toEqual([{ place_id: 'p1' }, { place_id: big }]);
    expect(second).toEqual([{ place_id: 'p2' }]);
  });

  it.each([{ name: 'no id' }, { place_id: null }, { place_id: '' }])(
    '--unique refuses a result without a place_id (%j) rather than keep it unchecked',
    (result) => {
      expect(() => keepFirstPerPlace([{ place_id: 'p1' }, result], new Set(), row)).toThrow(
        "server answered line 2's search with a result without a place_id; --unique needs every result's place_id to keep each place once",
      );
    },
  );
});
