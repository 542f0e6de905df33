// Walks a commander program into plain data, so that the shell generators never touch commander
// and tests can build trees by hand. Only what `--help` shows is kept: hidden commands and options
// are skipped, the built-in help option and help command are included.
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';

export interface CompletionOption {
  /** `--format`, `--no-header`; absent for a short-only option. */
  long?: string;
  /** `-f`; absent for a long-only option. */
  short?: string;
  description: string;
  takesValue: boolean;
  /** `format` for `--format <format>`; empty for an option without a value. */
  valueName: string;
  /** From `.choices()`; empty when any value goes. */
  choices: string[];
  /** The value is a path (`<file>`): the shell should offer files. */
  completesFiles: boolean;
  /** The value names a stored profile (`--profile <name>`): the shell asks leadctl for the names. */
  completesProfiles?: true;
}

export interface CompletionArgument {
  name: string;
  required: boolean;
  variadic: boolean;
  choices: string[];
  /** The argument names a stored profile (`<profile>`). */
  completesProfiles?: true;
}

export interface CompletionCommand {
  name: string;
  aliases: string[];
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
  subcommands: CompletionCommand[];
}

/** One command with the words that lead to it from the root, e.g. `['leadctl', 'config', 'set']`. */
export interface CommandAtPath {
  path: string[];
  command: CompletionCommand;
  /** The options that apply here: this command's and every ancestor's (commander reads them anywhere). */
  optionsInScope: CompletionOption[];
}

const FILE_VALUE_NAMES = /^(file|path|dir|directory)$|file$/i;

export function commandTree(command: CommandUnknownOpts): CompletionCommand {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  const siblingNames = subcommands.filter((sub) => sub.parent === command).map((sub) => sub.name());
  const trees = subcommands.map((sub) =>
    // The implicit `help [command]` is a placeholder without a parent: its argument is a sibling's name.
    sub.parent === command
      ? commandTree(sub)
      : helpCommand(sub, help.subcommandDescription(sub), siblingNames),
  );
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    options: help.visibleOptions(command).map(completionOption),
    arguments: command.registeredArguments.map(completionArgument),
    subcommands: trees.map((tree, index) =>
      subcommands[index]?.parent === command && tree.name === 'help' ? withSiblingNames(tree, trees) : tree,
    ),
  };
}

/**
 * A real `help` command (leadctl's, with topics as its subcommands) also takes a sibling's name:
 * each sibling is offered as a word after `help`, beside the topics, with its description.
 */
function withSiblingNames(help: CompletionCommand, siblings: CompletionCommand[]): CompletionCommand {
  const leaves = siblings
    .filter((sibling) => sibling !== help)
    .map((sibling) => ({ ...sibling, options: [], arguments: [], subcommands: [] }));
  return { ...help, arguments: [], subcommands: [...help.subcommands, ...leaves] };
}

function helpCommand(
  command: CommandUnknownOpts,
  description: string,
  siblingNames: string[],
): CompletionCommand {
  return {
    name: command.name(),
    aliases: [],
    description,
    options: [],
    arguments: command.registeredArguments.map((argument) => ({
      ...completionArgument(argument),
      choices: siblingNames,
    })),
    subcommands: [],
  };
}

function completionOption(option: Option): CompletionOption {
  const takesValue = option.required || option.optional;
  const valueName = /[<[]([^>\]]+?)(\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? '';
  return {
    ...(option.long ? { long: option.long } : {}),
    ...(option.short ? { short: option.short } : {}),
    description: option.description,
    takesValue,
    valueName,
    choices: option.argChoices ? [...option.argChoices] : [],
    completesFiles: takesValue && !option.argChoices && FILE_VALUE_NAMES.test(valueName),
    ...(takesValue && option.long === '--profile' ? { completesProfiles: true as const } : {}),
  };
}

function completionArgument(argument: Argument): CompletionArgument {
  return {
    name: argument.name(),
    required: argument.required,
    variadic: argument.variadic,
    choices: argument.argChoices ? [...argument.argChoices] : [],
    ...(argument.name() === 'profile' ? { completesProfiles: true as const } : {}),
  };
}

/** Every command of the tree, root first, parents before their children. */
export function commandsByPath(root: CompletionCommand): CommandAtPath[] {
  const found: CommandAtPath[] = [];
  const visit = (command: CompletionCommand, path: string[], inherited: CompletionOption[]) => {
    const optionsInScope = mergeOptions(inherited, command.options);
    found.push({ path, command, optionsInScope });
    for (const sub of command.subcommands) visit(sub, [...path, sub.name], optionsInScope);
  };
  visit(root, [root.name], []);
  return found;
}

/** A command's own option wins over an ancestor's with the same flag (every level has its own --help). */
function mergeOptions(inherited: CompletionOption[], own: CompletionOption[]): CompletionOption[] {
  const ownFlags = new Set(own.flatMap(optionFlags));
  return [...inherited.filter((option) => !optionFlags(option).some((flag) => ownFlags.has(flag))), ...own];
}

export function optionFlags(option: CompletionOption): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

/** The names a command answers to on the command line. */
export function commandNames(command: CompletionCommand): string[] {
  return [command.name, ...command.aliases];
}

// Names that end up in generated scripts. Choices and command names are spliced into word lists
// that shells expand (`compgen -W` runs expansions on its list), so anything beyond a plain word is
// refused at generation time, where a test catches it, rather than escaped into a fragile script.
const PLAIN_WORD = /^[A-Za-z0-9_@%+,./:=-]+$/;

export function plainWord(word: string): string {
  if (!PLAIN_WORD.test(word)) {
    throw new Error(`completion: ${JSON.stringify(word)} is not a plain word; shells would need it escaped`);
  }
  return word;
}

/** A shell function name derived from the program's name (`leadctl` -> `_leadctl`). */
export function functionPrefix(programName: string): string {
  return `_${programName.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Descriptions are free text: only their first line is shown. */
export function oneLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * What the scripts run to list stored profiles: `<program> config profiles`, whose lines are a
 * 2-character mark (`* ` or two spaces) and a name. Names are letters, digits, `.`, `_`, `-`.
 */
export const PROFILE_LIST_ARGS = 'config profiles';
