import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { parseSince } from '../../src/api/timestamp.js';

const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const iso = (text: string) => parseSince(text, NOW).toISOString();

describe('parseSince', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 30 * 60_000],
    ['24h', 24 * 3_600_000],
    ['7d', 7 * 86_400_000],
    ['2w', 14 * 86_400_000],
    [' 7D ', 7 * 86_400_000],
  ])('reads the span %s back from now', (text, ms) => {
    expect(parseSince(text, NOW).getTime()).toBe(NOW - ms);
  });

  it('reads a date alone as midnight UTC', () => {
    expect(iso('2026-11-01')).toBe('2026-11-01T00:00:00.000Z');
  });

  it.each([
    ['2026-11-01T09:30:00Z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:00.250z', '2026-11-01T09:30:00.250Z'],
    ['2026-11-01T09:30', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01 09:30:15', '2026-11-01T09:30:15.000Z'],
    ['2026-11-01T09:30+02:00', '2026-11-01T07:30:00.000Z'],
    ['2026-11-01T09:30:00-0530', '2026-11-01T15:00:00.000Z'],
    ['2026-11-01T23:30-01', '2026-11-02T00:30:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads the date-time %s (no zone = UTC)', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '7',
    'd',
    '0d',
    '-7d',
    '7 days',
    '1.5h',
    '7y',
    '2026-13-01',
    '2026-02-30',
    '2025-02-29',
    '2026-11-01T24:00',
    '2026-11-01T09:60',
    '2026-11-01T09:30:61',
    '2026-11-01T09:30+24:00',
    '2026-11-01T09:30+02:60',
    '2026-11-01T09:30+2',
    '2026/11/01',
    '01-11-2026',
    '1730419200',
    'now',
  ])('refuses %j with a UsageError that lists the accepted forms', (text) => {
    let caught: unknown;
    try {
      parseSince(text, NOW);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const error = caught as UsageError;
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`"${text}"`);
    expect(error.hint).toMatch(/2026-11-01.*UTC.*24h.*7d/);
  });
});
