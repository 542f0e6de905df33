import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  describeDuration,
  describeReset,
  findRetryAfter,
  parseRetryAfterHeader,
  parseRetryAfterValue,
} from '../../src/api/retry.js';

const NOW = Date.UTC(2026, 10, 22, 16, 48, 0);

describe('parseRetryAfterValue', () => {
  it('reads Unix seconds (the spec form) as an absolute time', () => {
    expect(parseRetryAfterValue(1_795_392_000, NOW)).toEqual({ kind: 'at', at: 1_795_392_000_000 });
    expect(parseRetryAfterValue('1795392000', NOW)).toEqual({ kind: 'at', at: 1_795_392_000_000 });
  });

  it('reads values above 1e12 as Unix milliseconds', () => {
    expect(parseRetryAfterValue(1_795_392_000_123, NOW)).toEqual({ kind: 'at', at: 1_795_392_000_123 });
    expect(parseRetryAfterValue('1795392000123', NOW)).toEqual({ kind: 'at', at: 1_795_392_000_123 });
  });

  it('reads small values as seconds to wait, fractions included', () => {
    expect(parseRetryAfterValue(30, NOW)).toEqual({ kind: 'at', at: NOW + 30_000 });
    expect(parseRetryAfterValue('1.5', NOW)).toEqual({ kind: 'at', at: NOW + 1500 });
    expect(parseRetryAfterValue(0, NOW)).toEqual({ kind: 'at', at: NOW });
    expect(parseRetryAfterValue(-5, NOW)).toEqual({ kind: 'at', at: NOW });
  });

  it('puts the boundaries on the smaller reading: exactly 1e9 is a wait, exactly 1e12 Unix seconds', () => {
    expect(parseRetryAfterValue(1e9, NOW)).toEqual({ kind: 'at', at: NOW + 1e12 });
    expect(parseRetryAfterValue(1e9 + 1, NOW)).toEqual({ kind: 'at', at: (1e9 + 1) * 1000 });
    expect(parseRetryAfterValue(1e12, NOW)).toEqual({ kind: 'at', at: 1e15 });
    expect(parseRetryAfterValue(1e12 + 1, NOW)).toEqual({ kind: 'at', at: 1e12 + 1 });
  });

  it('marks non-numeric values unreadable, keeping them to quote', () => {
    expect(parseRetryAfterValue('tomorrow', NOW)).toEqual({ kind: 'unreadable', raw: 'tomorrow' });
    expect(parseRetryAfterValue('12abc', NOW)).toEqual({ kind: 'unreadable', raw: '12abc' });
    expect(parseRetryAfterValue({ at: 1 }, NOW)).toEqual({ kind: 'unreadable', raw: '{"at":1}' });
    expect(parseRetryAfterValue(true, NOW)).toEqual({ kind: 'unreadable', raw: 'true' });
  });

  it('treats absence as no value at all', () => {
    expect(parseRetryAfterValue(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfterValue(null, NOW)).toBeUndefined();
    expect(parseRetryAfterValue('', NOW)).toBeUndefined();
  });
});

describe('findRetryAfter', () => {
  it.each([
    ['top level', { retryAfter: 1 }, 1],
    ['top level, snake case', { retry_after: '2' }, '2'],
    ['inside error', { error: { message: 'slow down', retryAfter: 3 } }, 3],
    ['inside error, snake case', { error: { retry_after: 4 } }, 4],
    ['inside detail', { detail: { retryAfter: 5 } }, 5],
  ])('finds it %s', (_where, body, expected) => {
    expect(findRetryAfter(body)).toBe(expected);
  });

  it('prefers the top level over a nested one', () => {
    expect(findRetryAfter({ retryAfter: 1, error: { retryAfter: 2 } })).toBe(1);
  });

  it('finds nothing elsewhere or in non-objects', () => {
    expect(findRetryAfter({ meta: { retryAfter: 1 } })).toBeUndefined();
    expect(findRetryAfter({ error: 'rate_limited', detail: 'too many' })).toBeUndefined();
    expect(findRetryAfter('retryAfter: 5')).toBeUndefined();
    expect(findRetryAfter([{ retryAfter: 5 }])).toBeUndefined();
    expect(findRetryAfter(null)).toBeUndefined();
  });
});

describe('parseRetryAfterHeader', () => {
  it('reads seconds as a wait from now', () => {
    expect(parseRetryAfterHeader('120', NOW)).toBe(NOW + 120_000);
    expect(parseRetryAfterHeader(' 0 ', NOW)).toBe(NOW);
  });

  it('reads an HTTP date as that time', () => {
    expect(parseRetryAfterHeader('Mon, 23 Nov 2026 00:00:00 GMT', NOW)).toBe(Date.UTC(2026, 10, 23));
  });

  it('ignores missing and unreadable values', () => {
    expect(parseRetryAfterHeader(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfterHeader('', NOW)).toBeUndefined();
    expect(parseRetryAfterHeader('soon', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('is random() times the doubling ceiling', () => {
    expect(backoffDelay(1, () => 1)).toBe(500);
    expect(backoffDelay(2, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 0.5)).toBe(1000);
    expect(backoffDelay(4, () => 1)).toBe(4000);
  });

  it('never exceeds the cap, and never goes below zero', () => {
    expect(backoffDelay(5, () => 1)).toBe(8000);
    expect(backoffDelay(30, () => 0.999)).toBeLessThan(8000);
    expect(backoffDelay(3, () => 0)).toBe(0);
  });

  it('takes base and cap from the caller', () => {
    expect(backoffDelay(3, () => 1, 10, 25)).toBe(25);
    expect(backoffDelay(2, () => 1, 10, 25)).toBe(20);
  });

  it('stays within bounds for real randomness', () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const delay = backoffDelay(attempt, Math.random);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(Math.min(8000, 500 * 2 ** (attempt - 1)));
    }
  });
});

describe('describeReset', () => {
  it('gives the local time, the UTC time and how long until then', () => {
    const resetAt = new Date(Date.UTC(2026, 10, 23, 0, 0));
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${resetAt.getFullYear()}-${pad(resetAt.getMonth() + 1)}-${pad(resetAt.getDate())} ${pad(resetAt.getHours())}:${pad(resetAt.getMinutes())}`;
    expect(describeReset(resetAt, NOW)).toBe(`at ${local} local time (00:00 UTC), in 7h 12m`);
  });

  it('says durations in the largest sensible units', () => {
    expect(describeDuration(45_000)).toBe('in 45s');
    expect(describeDuration(12 * 60_000)).toBe('in 12m');
    expect(describeDuration(3 * 86_400_000 + 2 * 3_600_000)).toBe('in 3d 2h');
    expect(describeDuration(-1)).toBe('now');
  });
});
