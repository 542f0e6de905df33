// `leadctl completion <shell>`: the script for one shell, generated from the program's own command tree.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { bashScript } from './bash.js';
import { commandTree } from './command-tree.js';
import { fishScript } from './fish.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const generators = { bash: bashScript, zsh: zshScript, fish: fishScript } satisfies Record<Shell, unknown>;

export function completionScript(shell: Shell, program: CommandUnknownOpts): string {
  return generators[shell](commandTree(program));
}
