// A terminal read line by line: a screen reader (ACCESSIBLE=1) or a dumb terminal (TERM=dumb, an
// editor's shell). The transcript is read as a screen reader would: text and line ends only, no cursor
// moves, no carriage-return repaints, no erase sequences. And `auth login` at a real terminal asks
// again for what it cannot use, keeping what was typed.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigHome } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 300, latencyMs: 100 });
});
afterAll(() => sandbox.close());

const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];

/** What a screen reader is given: anything but text, line ends and colour (SGR) is a repaint. */
function repaints(raw: string): string[] {
  const withoutColour = raw.replace(/\u001b\[[\d;]*m/g, '');
  return [...(withoutColour.match(/\u001b[^\n]{0,8}/g) ?? []), ...(withoutColour.match(/\r(?!\n)/g) ?? [])];
}

describe('ACCESSIBLE=1', () => {
  it('an export on a terminal: a start line and the final line, nothing repainted', async () => {
    const file = join(tempDir('accessible'), 'leads.csv');
    const run = runInPty(['leads', '--all', '--concurrency', '1', '-o', file, ...auth()], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), ACCESSIBLE: '1' },
    });
    const { exitCode, output } = await run.exited;
    expect(exitCode).toBe(0);
    expect(repaints(output)).toEqual([]);
    const lines = run.screen().trimEnd().split('\r\n');
    expect(lines).toEqual([
      'Fetching leads… page 1 of 3 (100 of 300)',
      `Wrote 300 leads to ${file} (3 requests).`,
    ]);
    expect(readFileSync(file, 'utf8').split('\r\n')).toHaveLength(302);
  });

  it('auth login: plain questions, asked again for a URL it cannot use and for an empty key', async () => {
    const home = await tempConfigHome();
    const run = runInPty(['auth', 'login'], { env: { XDG_CONFIG_HOME: home, ACCESSIBLE: '1' } });
    await run.waitFor('API base URL');
    run.type('api.example.com\r');
    await run.waitFor(/try again \(Ctrl-C to stop\)\r\nAPI base URL/);
    run.type(`${sandbox.url}\r`);
    await run.waitFor('API key: ');
    run.type('\r');
    await run.waitFor(/no key entered; try again \(Ctrl-C to stop\)\r\nAPI key: $/);
    run.type(`${SANDBOX_KEYS.pro}\r`);
    const { exitCode, output } = await run.exited;
    expect(exitCode).toBe(0);
    expect(repaints(output)).toEqual([]);
    expect(run.screen()).toContain(
      'API base URL (e.g. https://api.example.com): api.example.com\r\n' +
        'invalid base-url "api.example.com": expected an http:// or https:// URL; try again (Ctrl-C to stop)\r\n' +
        'API base URL (e.g. https://api.example.com): ',
    );
    const stored = JSON.parse(readFileSync(join(home, 'leadctl', 'config.json'), 'utf8'));
    expect(stored.profiles.default).toEqual({ 'base-url': sandbox.url, 'api-key': SANDBOX_KEYS.pro });
  });
});

describe('TERM=dumb', () => {
  it('long output on the terminal: no pager, no colour, nothing repainted', async () => {
    const dir = tempDir('dumb');
    const pager = join(dir, 'marking-pager');
    await writeFile(pager, '#!/bin/sh\nsed "s/^/P| /"\n', { mode: 0o755 });
    const run = runInPty(['leads', '--limit', '40', ...auth()], {
      env: { XDG_CONFIG_HOME: await tempConfigHome(), TERM: 'dumb', LEADCTL_PAGER: undefined, PAGER: pager },
    });
    const { exitCode, output } = await run.exited;
    expect(exitCode).toBe(0);
    expect(output).not.toContain('P| ');
    expect(output).not.toContain('\u001b');
    expect(repaints(output)).toEqual([]);
    expect(run.screen()).toMatch(/^name {2,}phone/m);
    expect(run.screen()).toContain('Showing 1–40 of 300 leads');
  });
});
