// `leadctl completion <shell>` prints a shell's script, and the hidden `leadctl __complete <words...>`
// answers it. ./complete.ts loads with the definitions: a few kilobytes that a TAB would otherwise
// wait for as an import of its own (measured: 40 ms of CPU per TAB, none for --help).
import { Argument } from '@commander-js/extra-typings';
import type { ContextFor, Program } from '../../session.js';
import { withExamples } from '../help/command.js';
import { complete, SCRIPTS } from './complete.js';

export function registerCompletion(program: Program, contextFor: ContextFor) {
  program
    .command('__complete', { hidden: true })
    .description('the completions for the words typed so far (the last one being typed)')
    .argument('[words...]')
    .helpOption(false)
    .allowUnknownOption()
    .action(async (words, _flags, self) => {
      const { io } = contextFor(self);
      io.stdout.write(await complete(program, words, io.env));
    });
  return withExamples(
    program
      .command('completion')
      .description('print a shell completion script (bash, zsh or fish)')
      .addArgument(
        new Argument('<shell>', 'the shell to print a script for').choices(['bash', 'zsh', 'fish']),
      ),
    [
      'leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion for the user to type
      'leadctl completion zsh > "${fpath[1]}/_leadctl"',
      'leadctl completion fish > ~/.config/fish/completions/leadctl.fish',
    ],
  ).action(async (shell, _flags, self) => {
    contextFor(self).io.stdout.write(SCRIPTS[shell]);
  });
}
