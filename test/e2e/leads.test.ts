import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
let home: string;
const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const env = () => ({ XDG_CONFIG_HOME: home });

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 60, seed: 7 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

describe('leadctl leads (one page)', () => {
  it('writes the first page as a JSON array, one item per line, with a footer on stderr', async () => {
    const before = sandbox.requests.length;
    const { exitCode, stdout, stderr } = await runCli(['leads', ...auth()], { env: env() });
    expect(exitCode).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('[');
    expect(lines.at(-2)).toBe(']');
    const leads = JSON.parse(stdout);
    expect(leads).toHaveLength(25);
    expect(Object.keys(leads[0]).slice(0, 2)).toEqual(['id', 'name']);
    expect(stderr).toContain('Showing 1–25 of 60 leads (page 1 of 3). Next: --page 2, or --all.');
    const sent = sandbox.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe('/api/v1/leads');
    expect(sent[0]?.authorization).toBe(`Bearer ${sandbox.apiKey}`);
  });

  it('asks for the page and size given and says when it is the last page', async () => {
    const before = sandbox.requests.length;
    const { exitCode, stdout, stderr } = await runCli(
      ['leads', '--page', '3', '--limit', '25', '--format', 'ndjson', ...auth()],
      {
        env: env(),
      },
    );
    expect(exitCode).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('id');
    expect(stderr).toContain('Showing 51–60 of 60 leads (page 3 of 3).');
    expect(stderr).not.toContain('Next:');
    expect(sandbox.requests.slice(before)[0]?.query).toMatchObject({ page: '3', limit: '25' });
  });

  it('csv: chosen fields in order, header, and --no-header', async () => {
    const withHeader = await runCli(['leads', '--csv', '--limit', '2', '--fields', 'name,id', ...auth()], {
      env: env(),
    });
    expect(withHeader.exitCode).toBe(0);
    const rows = withHeader.stdout.trimEnd().split(/\r?\n/);
    expect(rows[0]).toBe('name,id');
    expect(rows).toHaveLength(3);
    const noHeader = await runCli(
      ['leads', '--csv', '--limit', '2', '--fields', 'name,id', '--no-header', ...auth()],
      {
        env: env(),
      },
    );
    expect(noHeader.stdout.trimEnd().split(/\r?\n/)).toEqual(rows.slice(1));
  });

  it('-o writes the file through .partial and leaves stdout empty', async () => {
    const file = join(home, 'leads.json');
    const { exitCode, stdout } = await runCli(['leads', '-o', file, ...auth()], { env: env() });
    expect(exitCode).toBe(0);
    expect(stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(25);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it.each([
    [['--limit', '101'], '--limit'],
    [['--limit', '0'], '--limit'],
    [['--page', '0'], '--page'],
    [['--page', 'two'], '--page'],
    [['--since', 'last tuesday'], 'since'],
    [['--format', 'xml'], '--format'],
    [['--concurrency', '17'], '--concurrency'],
  ])('refuses %j with exit 2 before any request', async (flags, named) => {
    const before = sandbox.requests.length;
    const { exitCode, stdout, stderr } = await runCli(['leads', ...flags, ...auth()], { env: env() });
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toMatch(/^leadctl: /);
    expect(stderr).toContain(named);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('leadctl history', () => {
  it('lists past searches with the fields of the spec', async () => {
    const { exitCode, stdout, stderr } = await runCli(['history', '--limit', '5', ...auth()], { env: env() });
    expect(exitCode).toBe(0);
    const entries = JSON.parse(stdout);
    expect(entries).toHaveLength(5);
    expect(entries[0]).toHaveProperty('query');
    expect(entries[0]).toHaveProperty('results_count');
    expect(stderr).toMatch(/Showing 1–5 of [\d,]+ searches/);
  });
});

describe('an empty account', () => {
  it('prints [] and exits 0', async () => {
    const empty = await startSandbox({ leads: 0 });
    try {
      const { exitCode, stdout, stderr } = await runCli(
        ['leads', '--base-url', empty.url, '--api-key', empty.apiKey],
        {
          env: env(),
        },
      );
      expect(exitCode).toBe(0);
      expect(stdout).toBe('[]\n');
      expect(stderr).toContain('No leads.');
    } finally {
      await empty.close();
    }
  });
});
