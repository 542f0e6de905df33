// `leadctl --version`, which the launcher answers before loading dist/; and how the launcher loads dist/.
import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runBinary } from '../helpers/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('leadctl --version', () => {
  it.each(['--version', '-V'])('%s prints the package version alone on stdout', async (flag) => {
    const { exitCode, stdout, stderr } = await runBinary([flag]);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`${version}\n`);
    expect(stderr).toBe('');
  });

  it('ends quietly with exit 0 when stdout is closed', async () => {
    const result = await execa('sh', ['-c', `node "${BIN}" --version >&-`], { reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('matches what the built CLI itself reports', async () => {
    // A computed specifier: dist/ does not exist yet when the type check runs in a fresh clone.
    const cli = new URL('../../dist/cli.js', import.meta.url).href;
    const { main } = (await import(cli)) as { main(argv: string[], io: unknown): Promise<number> };
    let written = '';
    const stdout = { write: (text: string) => (written += text), on: () => stdout };
    await main(['--version'], { stdout, stderr: stdout, stdin: process.stdin, env: {} });
    expect(written).toBe(`${version}\n`);
  });
});

describe('the launcher', () => {
  it('loads dist/ through import() where require() of an ES module is refused (Node 22.0-22.11)', async () => {
    // --no-experimental-require-module makes any Node refuse it as those versions do (ERR_REQUIRE_ESM).
    const result = await execa(
      'node',
      ['--no-experimental-require-module', BIN, 'leads', '--sandbox', '--json', '--max-items', '2'],
      { reject: false, extendEnv: false, env: cleanEnv() },
    );
    expect(result.stderr).not.toMatch(/ERR_REQUIRE_ESM|Error/);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });
});
