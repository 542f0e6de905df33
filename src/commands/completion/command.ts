// `leadctl completion <shell>`: the generator (src/completion/) loads when the action runs.
import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { examples } from '../help/command.js';

// Kept here rather than imported from ../completion/ so that --help loads no generator code.
const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;
/** The top of the tree: the script describes every command, not just the ones below `completion`. */
function rootOf(command: CommandUnknownOpts): CommandUnknownOpts {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

export function registerCompletion(program: Program, contextFor: ContextFor) {
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
    .action(async (shell, _flags, self) => {
      const { completionScript } = await import('../../completion/index.js');
      contextFor(self).io.stdout.write(completionScript(shell, rootOf(self)));
    });
}
