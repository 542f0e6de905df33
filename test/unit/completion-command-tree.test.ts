import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { type CompletionCommand, commandsByPath, commandTree } from '../../src/completion/command-tree.js';

/** A small program with every shape the walker must read. */
function sampleProgram(): Command {
  const program = new Command('tool')
    .option('-q, --quiet', 'say less')
    .option('--profile <name>', 'which profile');
  program.addOption(new Option('--debug-internals', 'not for users').hideHelp());
  program
    .command('export')
    .alias('ex')
    .description('export rows')
    .argument('[query...]', 'what to export')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['csv', 'json']))
    .option('-o, --output <file>', 'write there')
    .option('--no-header', 'no header row');
  const remote = program.command('remote').description('manage remotes');
  remote
    .command('add')
    .description('add a remote')
    .addArgument(new Argument('<kind>').choices(['http', 'ssh']))
    .argument('[url]');
  program.command('secret', { hidden: true }).description('hidden');
  return program;
}

const find = (tree: CompletionCommand, name: string) => tree.subcommands.find((sub) => sub.name === name)!;

describe('commandTree', () => {
  const tree = commandTree(sampleProgram());

  it('keeps visible commands, adds the help command, and skips hidden ones', () => {
    expect(tree.name).toBe('tool');
    expect(tree.subcommands.map((sub) => sub.name)).toEqual(['export', 'remote', 'help']);
    expect(find(tree, 'remote').subcommands.map((sub) => sub.name)).toEqual(['add', 'help']);
  });

  it('reads short and long flags, values, choices, files, negation, and includes --help', () => {
    const exportCommand = find(tree, 'export');
    expect(exportCommand.aliases).toEqual(['ex']);
    expect(exportCommand.options).toEqual([
      expect.objectContaining({
        short: '-f',
        long: '--format',
        takesValue: true,
        valueName: 'format',
        choices: ['csv', 'json'],
        completesFiles: false,
      }),
      expect.objectContaining({ short: '-o', long: '--output', takesValue: true, completesFiles: true }),
      expect.objectContaining({ long: '--no-header', takesValue: false, choices: [] }),
      expect.objectContaining({ short: '-h', long: '--help', takesValue: false }),
    ]);
    expect(exportCommand.arguments).toEqual([
      { name: 'query', required: false, variadic: true, choices: [] },
    ]);
  });

  it('skips hidden options', () => {
    expect(tree.options.map((option) => option.long)).toEqual(['--quiet', '--profile', '--help']);
  });

  it('reads argument choices, and offers sibling commands to `help`', () => {
    const remote = find(tree, 'remote');
    expect(find(remote, 'add').arguments).toEqual([
      { name: 'kind', required: true, variadic: false, choices: ['http', 'ssh'] },
      { name: 'url', required: false, variadic: false, choices: [] },
    ]);
    expect(find(tree, 'help').arguments[0]?.choices).toEqual(['export', 'remote']);
    expect(find(remote, 'help').arguments[0]?.choices).toEqual(['add']);
  });
});

describe('commandsByPath', () => {
  it('lists every command with its path, and the options that apply there (ancestors too, nearest --help)', () => {
    const all = commandsByPath(commandTree(sampleProgram()));
    expect(all.map(({ path }) => path.join(' '))).toEqual([
      'tool',
      'tool export',
      'tool remote',
      'tool remote add',
      'tool remote help',
      'tool help',
    ]);
    const add = all.find(({ path }) => path.join(' ') === 'tool remote add')!;
    expect(add.optionsInScope.map((option) => option.long)).toEqual(['--quiet', '--profile', '--help']);
  });
});
