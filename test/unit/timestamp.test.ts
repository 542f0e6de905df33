import { describe, expect, it } from 'vitest';
import { timestampMs } from '../../src/api/timestamp.js';

/** Date's reading, NaN read as "no time". */
function viaDate(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

describe('timestampMs', () => {
  it('reads the API form, with and without fractions', () => {
    expect(timestampMs('2026-11-20T10:22:33Z')).toBe(Date.UTC(2026, 10, 20, 10, 22, 33));
    expect(timestampMs('2026-11-20T10:22:33.5Z')).toBe(Date.UTC(2026, 10, 20, 10, 22, 33, 500));
    expect(timestampMs('2024-02-29T23:59:59.999999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
  });

  it('gives exactly what Date gives, for odd and broken forms too', () => {
    const samples = [
      '2026-11-20T10:22:33Z',
      '2026-02-30T00:00:00Z', // Date rolls over into March
      '2025-02-29T00:00:00Z',
      '2000-02-29T12:00:00Z',
      '1900-02-29T12:00:00Z',
      '2026-11-20T24:00:00Z', // Date accepts 24:00
      '2026-11-20T10:22:60Z',
      '2026-13-01T00:00:00Z',
      '0050-01-01T00:00:00Z', // Date.UTC would say 1950
      '2026-11-20T10:22:33.Z',
      '2026-11-20T10:22:33.12aZ',
      '2026-11-20T10:22:33+02:00',
      '2026-11-20T10:22:33.123+00:00',
      '2026-11-20 10:22:33Z',
      '2026-11-20',
      '2026-11-20T10:22Z',
      '+02026-11-20T10:22:33Z',
      '２026-11-20T10:22:33Z',
      'yesterday',
      '',
      1795170153123,
      Number.NaN,
      null,
      undefined,
      {},
    ];
    for (const sample of samples) expect(timestampMs(sample), String(sample)).toBe(viaDate(sample));
  });
});
