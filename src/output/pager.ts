// Long output on a terminal goes through the user's pager, as gh and git do (docs/output.md, "The pager").
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Writable } from 'node:stream';

/** The pager command to run, or undefined for none. */
export function pagerCommand(env: NodeJS.ProcessEnv, pagerOption: boolean | undefined): string | undefined {
  // A dumb terminal (Emacs' shell, an editor's output pane) cannot show a pager's screen.
  if (pagerOption === false || env.TERM === 'dumb') return undefined;
  // An empty variable counts as unset, as every leadctl variable.
  const command = (env.LEADCTL_PAGER?.trim() || env.PAGER?.trim() || 'less').trim();
  return command === 'cat' ? undefined : command;
}

export interface Pager {
  /** Where the output goes: the pager's standard input. */
  input: Writable & { isTTY?: boolean };
  /** Ends the pager's input and waits until the person has quit it. */
  finish(): Promise<void>;
}

/** Starts the pager on the terminal (its output is ours); undefined when its program is not found. */
export async function startPager(command: string, env: NodeJS.ProcessEnv): Promise<Pager | undefined> {
  const program = command.split(/\s+/)[0] ?? '';
  if (!onPath(program, env.PATH)) return undefined;
  // Loaded only here: a run that pages nothing (piped, -o) never loads child processes.
  const { spawn } = await import('node:child_process');
  const child = spawn('/bin/sh', ['-c', command], {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const input = child.stdin as Writable;
  return {
    input,
    finish: async () => {
      // A pager quit early closed its input: the error is the writer's to report (a closed pipe).
      input.on('error', () => {});
      input.end();
      await exited;
    },
  };
}

function onPath(program: string, path: string | undefined): boolean {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program === '') return false;
  if (program.includes('/')) return executable(isAbsolute(program) ? program : join(process.cwd(), program));
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, program)));
}
