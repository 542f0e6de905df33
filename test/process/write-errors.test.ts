// Whatever a command prints, a failed write is reported (exit 1) and a closed pipe is not (exit 0).
// /dev/full fails every write with ENOSPC, as a full disk does.
import { existsSync, readdirSync } from 'node:fs';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const hasDevFull = existsSync('/dev/full');
let home: string;

beforeAll(async () => {
  home = tempDir('write-errors');
  // Something for `config list` to print.
  await execa('node', [BIN, 'config', 'set', 'format', 'csv'], {
    extendEnv: false,
    env: cleanEnv({ XDG_CONFIG_HOME: home }),
  });
});

/** Runs leadctl through a shell, so that stdout can be redirected (`> /dev/full`) or piped (`| head`). */
function shell(args: string, tail: string) {
  return execa('sh', ['-c', `node "${BIN}" ${args} ${tail}`], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ XDG_CONFIG_HOME: home }),
  });
}

describe.runIf(hasDevFull)('stdout that cannot be written', () => {
  it.each([
    ['completion bash'],
    ['completion zsh'],
    ['config list'],
    ['config path'],
    ['--help'],
    ['leads --help'],
    ['--version'],
    ['search plumber -l Austin --sandbox --json'],
  ])('%s > /dev/full: exit 1 and says why', async (args) => {
    const result = await shell(args, '> /dev/full');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^leadctl: cannot write standard output: no space left on device$/m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a closed pipe', () => {
  it.each([['completion bash'], ['--help'], ['leads --all --limit 5 --sandbox --csv']])(
    '%s | head -1: a quiet exit 0',
    async (args) => {
      // PIPESTATUS: leadctl's own exit code, not head's.
      const result = await execa(
        'bash',
        ['-c', `node "${BIN}" ${args} | head -c 1 > /dev/null; echo "\${PIPESTATUS[0]}"`],
        {
          reject: false,
          extendEnv: false,
          env: cleanEnv({ XDG_CONFIG_HOME: home }),
        },
      );
      expect(result.stdout).toBe('0');
      expect(result.stderr).toBe('');
    },
  );
});

describe('the cache folder', () => {
  it('holds no file of leadctl after any command', async () => {
    const cache = tempDir('cache-home');
    const env = cleanEnv({ XDG_CONFIG_HOME: home, XDG_CACHE_HOME: cache });
    for (const args of [
      ['--version'],
      ['leads', '--help'],
      ['leads', '--sandbox', '--json'],
      ['search', 'plumber', '-l', 'Austin', '--sandbox', '--csv'],
      ['config', 'set', 'format', 'csv'],
    ]) {
      const result = await execa('node', [BIN, ...args], { reject: false, extendEnv: false, env });
      expect(result.exitCode, args.join(' ')).toBe(0);
    }
    expect(readdirSync(cache)).toEqual([]);
  });
});
