// `leadctl help [command...]` and its topics `help environment` and `help exit-codes`, as gh has them.
// commander's built-in help command cannot take topics, so this one replaces it at the root: a word
// that names a topic runs the topic, any other words name the command whose help to show.
import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { examples } from './help-text.js';

/** For the root --help, before its examples: where the reference tables are. */
export const TOPICS_POINTER = `
Help topics:
  leadctl help environment   variables, their flags and config keys, which one wins
  leadctl help exit-codes    what each exit code means`;

export function registerHelp(program: Command, contextFor: ContextFor): Command {
  program.helpCommand(false);
  const run = () => import('./runs.js');
  const help = program
    .command('help')
    .description('show help for a command, or a topic: environment, exit-codes')
    .argument('[command...]', 'the command to show help for, e.g. "config set"')
    .addHelpText(
      'after',
      examples(['leadctl help environment', 'leadctl help exit-codes', 'leadctl help config set']),
    )
    .action(async (words: string[]) => {
      (await run()).showCommandHelp(program, words);
    });
  help
    .command('environment')
    .description('environment variables, their flags and config keys, and which wins')
    .action(async (_flags: unknown, self: Command) => {
      contextFor(self).io.stdout.write((await run()).environmentTopic());
    });
  help
    .command('exit-codes')
    .description('what each exit code means')
    .action(async (_flags: unknown, self: Command) => {
      contextFor(self).io.stdout.write((await run()).exitCodesTopic());
    });
  return help;
}
