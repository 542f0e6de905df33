// Long output on a terminal goes through the user's pager (gh's habit): LEADCTL_PAGER, else PAGER,
// else `less` with LESS=FRX; --no-pager, LEADCTL_PAGER=cat or a pipe go without. The pager here is a
// real program that marks every line it shows, so the test sees what passed through it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
let home: string;
let markingPager: string;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 60 });
  home = await tempConfigHome();
  const dir = tempDir('pager');
  markingPager = join(dir, 'marking-pager');
  // Shows every line with "P| " in front, and what LESS it was given.
  await writeFile(markingPager, '#!/bin/sh\necho "LESS=$LESS"\nsed "s/^/P| /"\n', { mode: 0o755 });
});
afterAll(() => sandbox.close());

const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];

async function onScreen(args: string[], env: Record<string, string | undefined>) {
  const run = runInPty([...args, ...auth()], {
    cols: 120,
    env: { XDG_CONFIG_HOME: home, LEADCTL_PAGER: undefined, ...env },
  });
  const result = await run.exited;
  return { ...result, screen: run.screen().replaceAll('\r\n', '\n') };
}

describe('the pager', () => {
  test('PAGER gets the output on a terminal, with LESS=FRX; the footer comes after it', async () => {
    const r = await onScreen(['leads', '--limit', '5'], { PAGER: markingPager });
    expect(r.exitCode).toBe(0);
    expect(r.screen).toContain('LESS=FRX');
    expect(r.screen).toMatch(/^P\| name {2,}phone/m);
    expect(r.screen.match(/^P\| /gm)).toHaveLength(6);
    expect(r.screen.indexOf('Showing 1–5')).toBeGreaterThan(r.screen.lastIndexOf('P| '));
  });

  test('LEADCTL_PAGER wins over PAGER; LEADCTL_PAGER=cat and --no-pager turn it off', async () => {
    const own = await onScreen(['leads', '--limit', '2', '--csv'], {
      PAGER: 'false',
      LEADCTL_PAGER: markingPager,
    });
    expect(own.screen).toMatch(/^P\| id,name/m);
    const cat = await onScreen(['leads', '--limit', '2'], { PAGER: markingPager, LEADCTL_PAGER: 'cat' });
    expect(cat.screen).not.toContain('P| ');
    expect(cat.screen).toMatch(/^name {2,}phone/m);
    const flag = await onScreen(['leads', '--limit', '2', '--no-pager'], { PAGER: markingPager });
    expect(flag.screen).not.toContain('P| ');
  });

  test('a pager that is not installed: the output shown directly and a warning', async () => {
    const r = await onScreen(['leads', '--limit', '2'], { PAGER: 'no-such-pager-here' });
    expect(r.exitCode).toBe(0);
    expect(r.screen).toMatch(/^name {2,}phone/m);
    expect(r.screen).toContain('pager not found: no-such-pager-here');
  });

  test('less itself, short output: shown and quit at once (-F), the terminal restored', async () => {
    const r = await onScreen(['leads', '--limit', '3'], {});
    expect(r.exitCode).toBe(0);
    expect(r.screen).toMatch(/name {2,}phone/);
    expect(r.modes).toMatchObject({ isig: true, icanon: true, echo: true });
  });

  test('less itself, long output: a page shown, q quits, leadctl ends with 0 and restores the terminal', async () => {
    const run = runInPty(['leads', '--limit', '60', '--fields', 'name,id', ...auth()], {
      cols: 100,
      rows: 20,
      env: { XDG_CONFIG_HOME: home, LEADCTL_PAGER: undefined },
    });
    await run.waitFor(/name {2,}id/);
    // less waits for a key: leadctl has not ended (no footer yet).
    expect(run.screen()).not.toContain('Showing 1–60');
    run.type('q');
    const result = await run.exited;
    expect(result.exitCode).toBe(0);
    expect(result.modes).toMatchObject({ isig: true, icanon: true, echo: true });
  });

  test('piped: never a pager', async () => {
    const r = await runCli(['leads', '--limit', '2', '--csv', ...auth()], {
      env: { XDG_CONFIG_HOME: home, PAGER: markingPager, LEADCTL_PAGER: markingPager },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('P| ');
    expect(r.stdout.startsWith('id,name')).toBe(true);
  });
});
