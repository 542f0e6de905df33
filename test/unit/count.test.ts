import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/ui/ui.js';

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 12_345, 1_234_567, -4_000, 1e15, 2.5])('writes %d as en-US does', (n) => {
    expect(formatCount(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 20 }));
  });
});
