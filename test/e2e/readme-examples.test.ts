// Every command line in the README's shell blocks that uses --sandbox runs here, as a reader would
// paste it, so that the README cannot drift from what leadctl accepts. The lines are read from
// README.md at test time: a new example is tested without anyone listing it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Lines of ```sh blocks that use --sandbox, without a trailing `# comment` and what precedes `&&`. */
function sandboxExamples(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map(
    (match) => match[1] ?? '',
  );
  return (
    blocks
      .flatMap((block) => block.split('\n'))
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => /(^|\s)--sandbox(\s|$)/.test(line))
      // `npm install && node bin/leadctl.js …`: the install is the reader's, the command is ours.
      .map((line) => line.split('&&').at(-1)?.trim() ?? line)
  );
}

const examples = sandboxExamples(readFileSync(join(ROOT, 'README.md'), 'utf8'));

describe('README examples that use --sandbox', () => {
  it('finds some', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples)('%s', async (line) => {
    // `leadctl` on PATH is the built binary, as after `npm link`; pipes and quotes are the shell's.
    const bin = tempDir('readme-bin');
    writeFileSync(join(bin, 'leadctl'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`, {
      mode: 0o755,
    });
    const result = await execa('bash', ['-o', 'pipefail', '-c', line], {
      cwd: ROOT,
      reject: false,
      extendEnv: false,
      stdin: 'ignore',
      env: cleanEnv({ PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: tempDir('readme-config') }),
    });
    expect(result.stderr).not.toMatch(/^leadctl: /m);
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout).length).toBeGreaterThan(0);
  });
});
