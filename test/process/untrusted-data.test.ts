// Lead data comes from third-party listings: every value is hostile until rendered safe.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';

let sandbox: SandboxHandle;
let home: string;
const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 48, hostileData: true, seed: 3 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

/** Runs leadctl on a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
async function onTerminal(args: string[], columns = 200): Promise<string> {
  const quoted = [BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const r = await execa('script', ['-qec', `stty cols ${columns}; node ${quoted}`, '/dev/null'], {
    reject: false,
    env: cleanEnv({ XDG_CONFIG_HOME: home, TERM: 'xterm-256color' }),
  });
  expect(r.exitCode).toBe(0);
  return String(r.stdout);
}

describe('table on a terminal', () => {
  it('holds no escape, bell, backspace or C1 byte that came from the data', async () => {
    const screen = await onTerminal([
      'leads',
      '--limit',
      '48',
      '--fields',
      'name,category',
      '--no-color',
      '-q',
      ...auth(),
    ]);
    expect(screen).toContain('Café Crème 東京 Bakery');
    // The hostile values are there, visibly escaped...
    expect(screen).toContain('\\x1b[31mRed Alert');
    expect(screen).toContain('\\u009b31mC1 Control');
    // ...and no control byte reaches the terminal (the pty turns \n into \r\n: those two are the table's own).
    expect(screen).not.toMatch(/[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f]/);
  });

  it('a terminal that reports no width gets results, not a progress line that clears forever', async () => {
    const quoted = [BIN, 'search', 'plumber', '-l', 'Austin', '--no-color', ...auth()]
      .map((a) => `'${a}'`)
      .join(' ');
    const r = await execa('script', ['-qec', `stty cols 0; node ${quoted}`, '/dev/null'], {
      reject: false,
      // Catches a progress line that never ends, not a slow machine.
      timeout: 60_000,
      env: cleanEnv({ XDG_CONFIG_HOME: home, TERM: 'xterm-256color' }),
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/\d+ results for "plumber" near Austin\./);
    expect(String(r.stdout).length).toBeLessThan(100_000);
  });

  it('fits the terminal width', async () => {
    const screen = await onTerminal(['leads', '--no-color', '-q', ...auth()], 72);
    for (const line of screen.split(/\r?\n/)) expect([...line].length).toBeLessThanOrEqual(72);
    // A long escaped name keeps its column whole: other columns are left out to fit.
    expect(screen).toContain('\\x1b]8;;https://evil.example\\x07Trusted Bank\\x1b]8;;\\x07');
  });
});

describe('tsv', () => {
  it('keeps one record per line, with tabs, newlines and escapes spelled out', async () => {
    const { exitCode, stdout } = await runCli(['leads', '--limit', '48', '--format', 'tsv', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(exitCode).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(49);
    for (const line of lines) expect(line.split('\t')).toHaveLength(9);
    expect(stdout).toContain('Line one\\nLine two Plumbing');
    expect(stdout).not.toMatch(/[\u001b\u0007\u0008\u009b]/);
  });
});

describe('csv', () => {
  it('reads back exactly with an RFC 4180 parser, formulas neutralized, phones untouched', async () => {
    const json = await runCli(['leads', '--limit', '48', '--json', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    const csv = await runCli(['leads', '--limit', '48', '--csv', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(csv.exitCode).toBe(0);
    const leads = JSON.parse(json.stdout) as Record<string, unknown>[];
    const [header, ...rows] = parseCsv(csv.stdout);
    expect(header).toEqual([
      'id',
      'name',
      'address',
      'phone',
      'website',
      'rating',
      'review_count',
      'category',
      'saved_at',
    ]);
    expect(rows).toHaveLength(leads.length);
    const guarded = (value: string) =>
      /^[=@\t\r]/.test(value) || /^[+-](?![\d\s().-]*\d[\d\s().-]*$)/.test(value) ? `'${value}` : value;
    rows.forEach((row, i) => {
      const lead = leads[i] as Record<string, unknown>;
      expect(row[0]).toBe(lead.id);
      expect(row[1]).toBe(guarded(String(lead.name)));
      expect(row[3]).toBe(lead.phone ?? '');
      expect(row[7]).toBe(guarded(String(lead.category)));
    });
    const names = rows.map((row) => row[1]);
    expect(names).toContain(`'=HYPERLINK("http://evil.example/x","Click me")`);
    expect(names).toContain('Smith, Jones & "Partners"');
    expect(names).toContain('Café Crème 東京 Bakery');
    expect(rows.some((row) => /^\+1 \d{3}-555-\d{4}$/.test(row[3] ?? ''))).toBe(true);
  });

  it('--no-sanitize writes formulas as the server sent them', async () => {
    const csv = await runCli(['leads', '--limit', '48', '--csv', '--no-sanitize', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    const names = parseCsv(csv.stdout).map((row) => row[1]);
    expect(names).toContain('=HYPERLINK("http://evil.example/x","Click me")');
  });
});

describe('json', () => {
  it('keeps every value exact', async () => {
    const { stdout } = await runCli(['leads', '--limit', '48', '--json', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    const names = (JSON.parse(stdout) as { name: string }[]).map((lead) => lead.name);
    expect(names).toContain('\u001b[31mRed Alert\u001b[0m Plumbing');
    expect(names).toContain('=HYPERLINK("http://evil.example/x","Click me")');
  });
});
