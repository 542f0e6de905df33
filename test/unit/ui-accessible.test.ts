// ACCESSIBLE=1 (any value but 0/false): progress as plain lines, the first at once, then at most one
// every 30 s, whatever the run reports in between.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUi, envFlag } from '../../src/ui/ui.js';

function terminal() {
  const lines: string[] = [];
  const stderr = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
    { isTTY: true, columns: 80 },
  );
  return { stderr, lines };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('accessible progress', () => {
  it('says the first progress at once, then at most a line every 30 s', async () => {
    vi.useFakeTimers();
    const { stderr, lines } = terminal();
    const ui = await createUi({
      stderr,
      quiet: false,
      verbose: false,
      color: false,
      env: { ACCESSIBLE: '1' },
    });
    ui.progress('page 1 of 9');
    vi.advanceTimersByTime(10_000);
    ui.progress('page 2 of 9');
    vi.advanceTimersByTime(19_999);
    ui.progress('page 3 of 9');
    vi.advanceTimersByTime(1);
    ui.progress('page 4 of 9');
    ui.stopProgress();
    ui.notice('Wrote 900 leads.');
    expect(lines).toEqual(['page 1 of 9\n', 'page 4 of 9\n', 'Wrote 900 leads.\n']);
  });

  it('--quiet says nothing', async () => {
    const { stderr, lines } = terminal();
    const ui = await createUi({
      stderr,
      quiet: true,
      verbose: false,
      color: false,
      env: { ACCESSIBLE: '1' },
    });
    ui.progress('page 1 of 9');
    expect(lines).toEqual([]);
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['FALSE', false],
    ['', false],
    [undefined, false],
  ])('ACCESSIBLE=%j is %s', (value, on) => {
    expect(envFlag(value)).toBe(on);
  });
});
