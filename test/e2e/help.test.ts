// Every command's --help, as a user reads it: usage, options and two or three real examples at the end.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import { runCli } from '../helpers/cli.js';

function commandPaths(command: CommandUnknownOpts, prefix: string[] = []): string[][] {
  return command.commands
    .filter((sub) => sub.name() !== 'help' && !(sub as { _hidden?: boolean })._hidden)
    .flatMap((sub) => [[...prefix, sub.name()], ...commandPaths(sub, [...prefix, sub.name()])]);
}

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} };
const paths = [[], ...commandPaths(buildProgram(io, new AbortController().signal))];

describe('--help', () => {
  it.each(paths.map((path) => [path.join(' ') || '(root)', path]))(
    '%s ends with real examples',
    async (_name, path) => {
      const { exitCode, stdout, stderr } = await runCli([...(path as string[]), '--help']);
      expect(exitCode).toBe(0);
      expect(stderr).toBe('');
      const examples = stdout.split('\nExamples:\n')[1] ?? '';
      const lines = examples.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) expect(line).toMatch(/^ {2}\$ (leadctl|echo|chmod)\b/);
    },
  );

  it('an unknown command suggests the nearest one', async () => {
    const { exitCode, stderr } = await runCli(['serch', 'plumber']);
    expect(exitCode).toBe(2);
    expect(stderr).toBe("leadctl: unknown command 'serch'\ndid you mean search?\n");
  });
});
