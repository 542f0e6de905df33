// FORCE_COLOR and CLICOLOR_FORCE colour output that is piped (`leadctl leads | less -R`); NO_COLOR and
// --no-color win over them; a file written with -o never gets colour.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxHandle;
let home: string;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 30 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

const BOLD_HEADER = '\u001b[1mname\u001b[22m';
const DIM = '\u001b[2m';

function table(env: Record<string, string>, extra: string[] = []) {
  return runCli(
    [
      'leads',
      '--limit',
      '2',
      '-f',
      'table',
      ...extra,
      '--base-url',
      sandbox.url,
      '--api-key',
      sandbox.apiKey,
    ],
    {
      env: { XDG_CONFIG_HOME: home, ...env },
    },
  );
}

describe('colour when piped', () => {
  it('none by default', async () => {
    const r = await table({});
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('\u001b[');
  });

  for (const variable of ['FORCE_COLOR', 'CLICOLOR_FORCE']) {
    it(`${variable}=1 colours the table's header and the notices on stderr`, async () => {
      const r = await table({ [variable]: '1' });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(BOLD_HEADER);
      expect(r.stderr).toContain(DIM);
    });
  }

  it('FORCE_COLOR=0 forces nothing', async () => {
    const r = await table({ FORCE_COLOR: '0' });
    expect(r.stdout + r.stderr).not.toContain('\u001b[');
  });

  it('NO_COLOR and --no-color win over FORCE_COLOR', async () => {
    const noColor = await table({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(noColor.stdout + noColor.stderr).not.toContain('\u001b[');
    const flag = await table({ CLICOLOR_FORCE: '1' }, ['--no-color']);
    expect(flag.stdout + flag.stderr).not.toContain('\u001b[');
  });

  it('a file written with -o gets no colour, and piped json stays exact', async () => {
    const file = join(tempDir('colour'), 'leads.txt');
    const r = await table({ FORCE_COLOR: '1' }, ['-o', file]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(file, 'utf8')).not.toContain('\u001b[');
    const json = await runCli(
      ['leads', '--limit', '2', '--json', '--base-url', sandbox.url, '--api-key', sandbox.apiKey],
      {
        env: { XDG_CONFIG_HOME: home, FORCE_COLOR: '1' },
      },
    );
    expect(json.stdout).not.toContain('\u001b[');
    expect(JSON.parse(json.stdout)).toHaveLength(2);
  });
});
