// The zsh completion script: one function per command, each an `_arguments` call. A command with
// subcommands completes their names first and hands the rest of the line to the chosen one's function.
import {
  type CommandAtPath,
  type CompletionArgument,
  type CompletionCommand,
  type CompletionOption,
  commandNames,
  commandsByPath,
  functionPrefix,
  oneLine,
  PROFILE_LIST_ARGS,
  plainWord,
} from './command-tree.js';

export function zshScript(root: CompletionCommand): string {
  const profiles = `${functionPrefix(root.name)}_profiles`;
  const functions = commandsByPath(root).map((at) => commandFunction(at, profiles));
  return [
    `#compdef ${plainWord(root.name)}`,
    `# zsh completion for ${root.name}: generated from its commands by \`${root.name} completion zsh\`; do not edit.`,
    `# Install: ${root.name} completion zsh > "\${fpath[1]}/_${root.name}", then start a new shell.`,
    '',
    '# The stored profile names, from `config profiles` (each line: a 2-character mark, then the name).',
    '# Quiet and empty when leadctl fails (no config yet, a broken file).',
    `${profiles}() {`,
    '  local -a lines',
    `  lines=(\${(f)"$(command ${plainWord(root.name)} ${PROFILE_LIST_ARGS} 2>/dev/null)"})`,
    `  compadd -- \${lines#??}`,
    '}',
    '',
    ...functions,
    `# Autoloaded from $fpath: complete now. Sourced (\`source <(${root.name} completion zsh)\`): register.`,
    `if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then`,
    `  ${functionName([root.name])} "$@"`,
    'else',
    `  compdef ${functionName([root.name])} ${plainWord(root.name)}`,
    'fi',
    '',
  ].join('\n');
}

function functionName(path: string[]): string {
  return functionPrefix(path.join('__'));
}

function commandFunction(at: CommandAtPath, profiles: string): string {
  const { path, command, optionsInScope } = at;
  const specs = optionsInScope.flatMap((option) => optionSpecs(option, profiles));
  if (command.subcommands.length === 0) {
    specs.push(...command.arguments.map((argument, index) => argumentSpec(argument, index, profiles)));
    return [`${functionName(path)}() {`, `  _arguments -S \\`, specLines(specs), '}', ''].join('\n');
  }
  specs.push(`'1: :${functionName(path)}_commands'`, `'*:: :->subcommand'`);
  return [
    `${functionName(path)}_commands() {`,
    '  local -a commands=(',
    ...command.subcommands.flatMap((sub) =>
      commandNames(sub).map(
        (name) => `    ${quote(`${name.replaceAll(':', '\\:')}:${oneLine(sub.description)}`)}`,
      ),
    ),
    '  )',
    `  _describe -t commands ${quote(`${path.join(' ')} command`)} commands`,
    '}',
    '',
    `${functionName(path)}() {`,
    '  local curcontext=$curcontext state line ret=1',
    '  typeset -A opt_args',
    '  _arguments -C -S \\',
    `${specLines(specs)} && ret=0`,
    '  if [[ $state == subcommand ]]; then',
    '    case $words[1] in',
    ...command.subcommands.map(
      (sub) =>
        `      ${commandNames(sub).map(plainWord).join('|')}) ${functionName([...path, sub.name])} && ret=0 ;;`,
    ),
    '    esac',
    '  fi',
    '  return ret',
    '}',
    '',
  ].join('\n');
}

function specLines(specs: string[]): string {
  return specs.map((spec) => `    ${spec}`).join(' \\\n');
}

/** `'(-f --format)'{-f+,--format=}'[output format]:format:(table json)'`: either spelling, once. */
function optionSpecs(option: CompletionOption, profiles: string): string[] {
  const flags = [option.short, option.long]
    .filter((flag): flag is string => flag !== undefined)
    .map(plainWord);
  const exclusions = flags.length > 1 ? `'(${flags.join(' ')})'` : '';
  const spelled = flags.map((flag) =>
    option.takesValue ? `${flag}${flag.startsWith('--') ? '=' : '+'}` : flag,
  );
  const names = spelled.length > 1 ? `{${spelled.join(',')}}` : (spelled[0] ?? '');
  const description = oneLine(option.description).replace(/[\\[\]]/g, '\\$&');
  const value = option.takesValue
    ? `:${valueMessage(option.valueName)}:${option.completesProfiles ? profiles : valueAction(option)}`
    : '';
  return [`${exclusions}${names}${quote(`[${description}]${value}`)}`];
}

function valueAction(option: CompletionOption): string {
  if (option.choices.length > 0) return `(${option.choices.map(plainWord).join(' ')})`;
  return option.completesFiles ? '_files' : ' ';
}

function argumentSpec(argument: CompletionArgument, index: number, profiles: string): string {
  let action = argument.choices.length > 0 ? `(${argument.choices.map(plainWord).join(' ')})` : ' ';
  if (argument.completesProfiles) action = profiles;
  // `*::` would narrow the words; a variadic argument is a plain `*:`.
  const position = argument.variadic ? '*' : `${index + 1}${argument.required ? '' : ':'}`;
  return quote(`${position}:${valueMessage(argument.name)}:${action}`);
}

function valueMessage(name: string): string {
  return name.replace(/[:\\]/g, '\\$&') || 'value';
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
