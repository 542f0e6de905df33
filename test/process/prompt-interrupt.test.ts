// Every prompt ends on the first interrupt, whether typed (Ctrl-C) or sent (`kill -INT`), with exit 130
// and the terminal given back with echo on: nothing is saved.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigHome } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';

describe('interrupting a prompt', () => {
  it('Ctrl-C at the base URL prompt of auth login', async () => {
    const home = await tempConfigHome();
    const run = runInPty(['auth', 'login'], { env: { XDG_CONFIG_HOME: home } });
    await run.waitFor('API base URL');
    run.type('\x03');
    const { exitCode, modes, output } = await run.exited;
    expect(output).not.toContain('report it');
    expect(exitCode).toBe(130);
    expect(modes.echo && modes.icanon && modes.isig).toBe(true);
    expect(existsSync(join(home, 'leadctl', 'config.json'))).toBe(false);
  });

  it.each([
    ['auth login', ['auth', 'login', '--base-url', 'http://127.0.0.1:9']],
    ['config set api-key', ['config', 'set', 'api-key']],
  ])('one SIGINT from another process at the hidden key prompt of %s', async (_, args) => {
    const home = await tempConfigHome();
    const run = runInPty(args, { env: { XDG_CONFIG_HOME: home } });
    await run.waitFor('API key: ');
    await run.waitForModes((modes) => !modes.echo);
    await run.signal('SIGINT');
    const { exitCode, modes } = await run.exited;
    expect(exitCode).toBe(130);
    expect(modes.echo && modes.icanon && modes.isig).toBe(true);
    expect(existsSync(join(home, 'leadctl', 'config.json'))).toBe(false);
  });
});
