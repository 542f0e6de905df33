// The checked-in completion scripts are what the CLI prints: a change to any command, option or
// choice must come with regenerated completions/. Run in-process (main() on the sources): no request.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const CHECKED_IN = {
  bash: 'completions/leadctl.bash',
  zsh: 'completions/_leadctl',
  fish: 'completions/leadctl.fish',
};

describe('completions/ is up to date', () => {
  it.each(Object.entries(CHECKED_IN))('%s: %s equals `leadctl completion` output', async (shell, file) => {
    const result = await runCli(['completion', shell]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const checkedIn = readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8');
    expect(
      result.stdout,
      `${file} is stale: run \`npm run build && node scripts/update-completions.mjs\``,
    ).toBe(checkedIn);
  });
});
