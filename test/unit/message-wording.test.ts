// The words of notices whose inputs a test server cannot pin down: waits chosen by jitter, and a
// sunset measured from now.
import { describe, expect, it } from 'vitest';
import { deprecationWarning, formatWait } from '../../src/ui/ui.js';

describe('formatWait', () => {
  it.each([
    [0, 'now'],
    [0.4, 'now'],
    [3.2, 'in 3 ms'],
    [249.6, 'in 250 ms'],
    [1000, 'in 1 s'],
    [1349, 'in 1.3 s'],
    [9999, 'in 10 s'],
    [42_400, 'in 42 s'],
    [60_000, 'in 1 min'],
    [125_000, 'in 2 min 5 s'],
  ])('%s ms -> %s', (ms, text) => {
    expect(formatWait(ms)).toBe(text);
  });
});

describe('deprecationWarning', () => {
  const now = Date.UTC(2026, 10, 23, 12);

  it('quotes the notice and counts days to or since the sunset', () => {
    expect(
      deprecationWarning({ notice: 'v1 ends; use v2', sunset: 'Sun, 01 Nov 2026 00:00:00 GMT' }, now),
    ).toBe(
      'the server says this API is deprecated: "v1 ends; use v2"; sunset 2026-11-01, 23 days ago: it may stop answering at any time.',
    );
    expect(deprecationWarning({ sunset: 'Tue, 01 Dec 2026 00:00:00 GMT' }, now)).toBe(
      'the server says this API is deprecated; sunset 2026-12-01, in 8 days.',
    );
  });

  it('reads RFC 9745 dates, and quotes what it cannot read', () => {
    expect(deprecationWarning({ deprecation: '@1767225600' }, now)).toBe(
      'the server says this API is deprecated; deprecated since 2026-01-01.',
    );
    expect(deprecationWarning({ deprecation: 'true', sunset: 'soon' }, now)).toBe(
      'the server says this API is deprecated; Sunset: soon.',
    );
    expect(deprecationWarning({ deprecation: 'true' }, now)).toBe('the server says this API is deprecated.');
  });
});
