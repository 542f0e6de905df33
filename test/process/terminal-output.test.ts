// What a person sees at a real terminal (a pty): tables that fit 40 and 200 columns, colour on and off,
// the spinner, and every format made safe for the screen while the same bytes stay exact when piped.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { runInPty, stripAnsi } from '../helpers/pty.js';

let sandbox: SandboxHandle;
let home: string;
beforeAll(async () => {
  sandbox = await startSandbox({ hostileData: true, leads: 60 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];

async function onScreen(args: string[], options: { cols?: number; env?: Record<string, string> } = {}) {
  const run = runInPty([...args, ...auth()], {
    cols: options.cols ?? 100,
    env: { XDG_CONFIG_HOME: home, ...options.env },
  });
  const result = await run.exited;
  expect(result.exitCode).toBe(0);
  return { raw: result.output, text: stripAnsi(result.output).replaceAll('\r\n', '\n'), result };
}

// A byte a terminal would act on: C0 but the pty's own CR and LF, DEL, C1.
const RAW_CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

describe('tables at a terminal', () => {
  for (const cols of [40, 200]) {
    test(`fit ${cols} columns: no line wider, the name always shown, borderless`, async () => {
      const { text } = await onScreen(['leads', '--limit', '20', '-q'], { cols });
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^name {2,}/);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(cols);
      expect(text).not.toMatch(/[│┌─]/);
      if (cols === 200) {
        expect(lines[0]).toMatch(/ saved_at \(UTC\)$/);
        // Websites without scheme or www.: the column after the phone.
        expect(text).toMatch(/\+1 [\d-]+ {2}[a-z]/);
        expect(text).not.toMatch(/\+1 [\d-]+ +(https?:|www\.)/);
      } else {
        // The columns people triage by, the name and the rating first, before the phone.
        expect(lines[0]).toMatch(/^name +rating$/);
      }
    });
  }

  test('colour on a terminal: a bold header; none with NO_COLOR or --no-color', async () => {
    const coloured = await onScreen(['leads', '--limit', '3', '-q']);
    expect(coloured.raw).toContain('\u001b[1mname\u001b[22m');
    const noColor = await onScreen(['leads', '--limit', '3', '-q'], { env: { NO_COLOR: '1' } });
    expect(noColor.raw).not.toContain('\u001b[1m');
    const flag = await onScreen(['leads', '--limit', '3', '-q', '--no-color']);
    expect(flag.raw).not.toContain('\u001b[1m');
  });
});

describe('every format is safe on a terminal and exact when piped', () => {
  for (const format of ['csv', 'ndjson', 'json', 'tsv', 'table']) {
    test(`${format}: no escape sequence from the data reaches the terminal`, async () => {
      const { raw } = await onScreen(['leads', '--limit', '60', '-f', format, '-q', '--no-color']);
      // The sandbox's hostile leads are there, visibly escaped...
      expect(stripAnsi(raw)).toMatch(/\\(x1b|u001b)\[31mRed Alert/);
      // ...and no control byte from the data reaches the screen (the spinner's own were not started: -q).
      // tsv's own separator is a tab.
      expect(format === 'tsv' ? raw.replaceAll('\t', ' ') : raw).not.toMatch(RAW_CONTROL);
    });
  }

  test('csv and ndjson piped keep the bytes the server sent', async () => {
    const csv = await runCli(['leads', '--limit', '60', '--csv', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(csv.exitCode).toBe(0);
    expect(csv.stdout).toContain('\u001b[31mRed Alert');
    const ndjson = await runCli(['leads', '--limit', '60', '-f', 'ndjson', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(ndjson.stdout).toContain('\\u001b[31mRed Alert');
  });
});

test('the spinner shows the progress on a terminal, and is gone at the end', async () => {
  const slow = await startSandbox({ latencyMs: 150, leads: 400 });
  try {
    const run = runInPty(
      ['leads', '--all', '--csv', '-o', '/dev/null', '--base-url', slow.url, '--api-key', slow.apiKey],
      {
        env: { XDG_CONFIG_HOME: home },
      },
    );
    await run.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Fetching leads… page \d+ of 4/);
    const result = await run.exited;
    expect(result.exitCode).toBe(0);
    expect(stripAnsi(result.output)).toMatch(/Wrote 400 leads to \/dev\/null/);
    expect(result.output.lastIndexOf('\u001b[?25h')).toBeGreaterThan(
      result.output.lastIndexOf('\u001b[?25l'),
    );
  } finally {
    await slow.close();
  }
});

// ora 9 clears its line around writes to process.stdout: this keeps streamed table rows clear of it.
test('rows streamed to the screen while the spinner runs: each row on a line of its own', async () => {
  const slow = await startSandbox({ latencyMs: 150, leads: 300 });
  try {
    const run = runInPty(
      [
        'leads',
        '--all',
        '--concurrency',
        '1',
        '--fields',
        'name,id',
        '--base-url',
        slow.url,
        '--api-key',
        slow.apiKey,
      ],
      {
        cols: 120,
        env: { XDG_CONFIG_HOME: home },
      },
    );
    const result = await run.exited;
    expect(result.exitCode).toBe(0);
    // What the screen ends up showing: a spinner frame is erased (CR / erase line) before a row is written.
    const screen = renderScreen(result.output);
    const rows = screen.filter((line) => /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/.test(line));
    expect(rows).toHaveLength(300);
    for (const row of rows) expect(row).not.toMatch(/Fetching|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  } finally {
    await slow.close();
  }
});

/** The lines a terminal shows for this output: CR and "erase line" / "column 1" applied, other escapes dropped. */
function renderScreen(raw: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of raw.split(/(\u001b\[[0-?]*[ -/]*[@-~]|\r\n|\r|\n)/)) {
    if (token === '\r\n' || token === '\n') {
      lines.push(line);
      line = '';
    } else if (token === '\r' || token === '\u001b[1G' || token === '\u001b[G') {
      line = '';
    } else if (token === '\u001b[0K' || token === '\u001b[K' || token === '\u001b[2K') {
      // The cursor is at the start after ora's moves: what is left of the line is erased.
    } else if (!token.startsWith('\u001b')) {
      line += token;
    }
  }
  if (line) lines.push(line);
  return lines;
}
