// The quote's token, with the clock in the test's hand: good for one search, with the arguments it
// was quoted for, within 10 minutes.
import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolDeps } from '../../src/mcp/deps.js';
import type { SearchInput } from '../../src/mcp/schemas.js';
import { SpendConfirmation } from '../../src/mcp/spend-confirmation.js';

const deps = {
  searches: {
    caps: { maxRequests: 50, maxSearches: 10, maxSearchesPerDay: 50 },
    sessionSearches: 0,
    searchesToday: () => 0,
    check: () => {},
  },
  usage: { plan: undefined, serverAllowance: () => undefined },
  budget: { remaining: 50 },
  mask: (text: string) => text,
} as unknown as ToolDeps;
const call = { signal: new AbortController().signal, progress: () => {} } as ToolCall;
const SEARCH: SearchInput = { query: 'plumber', location: 'Austin' };

describe('SpendConfirmation', () => {
  let now = Date.parse('2026-11-20T10:00:00Z');
  const confirmation = new SpendConfirmation(true, () => now);
  const quote = async (check: string) => {
    const result = await confirmation.check(SEARCH, check, deps, call);
    return (
      (result?.structuredContent as { quote: { confirm: string; expires_at: string } } | undefined)
        ?.quote ?? { confirm: '', expires_at: '' }
    );
  };

  it('lets a token through once, for its own arguments, before it expires', async () => {
    const first = await quote('plumber|Austin');
    expect(first.expires_at).toBe('2026-11-20T10:10:00.000Z');
    expect(
      await confirmation.check({ ...SEARCH, confirm: first.confirm }, 'plumber|Austin', deps, call),
    ).toBe(undefined);
    await expect(
      confirmation.check({ ...SEARCH, confirm: first.confirm }, 'plumber|Austin', deps, call),
    ).rejects.toThrow(/is not an open quote/);

    const late = await quote('plumber|Austin');
    now += 10 * 60_000;
    await expect(
      confirmation.check({ ...SEARCH, confirm: late.confirm }, 'plumber|Austin', deps, call),
    ).rejects.toThrow(/is not an open quote/);

    const other = await quote('plumber|Austin');
    await expect(
      confirmation.check({ ...SEARCH, confirm: other.confirm }, 'plumber|Dallas', deps, call),
    ).rejects.toThrow(/was quoted for other arguments/);
  });

  it('asks nothing with --no-confirm', async () => {
    expect(await new SpendConfirmation(false).check(SEARCH, 'x', deps, call)).toBe(undefined);
  });
});
