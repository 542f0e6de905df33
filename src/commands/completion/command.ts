import { Argument, type Command } from 'commander';
import type { ContextFor } from '../context.js';
import { examples } from '../help-text.js';

// Kept here rather than imported from ../completion/ so that --help loads no generator code.
const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;
type ShellName = (typeof SHELL_NAMES)[number];

/** The top of the tree: the script describes every command, not just the ones below `completion`. */
function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

export function registerCompletion(program: Command, contextFor: ContextFor): Command {
  return program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell to print a script for').choices(SHELL_NAMES))
    .addHelpText(
      'after',
      examples([
        'leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion for the user to type
        'leadctl completion zsh > "${fpath[1]}/_leadctl"',
        'leadctl completion fish > ~/.config/fish/completions/leadctl.fish',
      ]),
    )
    .action(async (shell: ShellName, _flags: unknown, self: Command) => {
      const { completionScript } = await import('../../completion/index.js');
      contextFor(self).io.stdout.write(completionScript(shell, rootOf(self)));
    });
}
