// The bash completion script: a fixed walker (which command are we in, which option wants a value,
// which positional is this) over small lookup functions generated from the command tree.
import {
  type CommandAtPath,
  type CompletionCommand,
  type CompletionOption,
  commandNames,
  commandsByPath,
  functionPrefix,
  optionFlags,
  PROFILE_LIST_ARGS,
  plainWord,
} from './command-tree.js';

export function bashScript(root: CompletionCommand): string {
  const fn = functionPrefix(root.name);
  const commands = commandsByPath(root);
  return [
    `# bash completion for ${root.name}: generated from its commands by \`${root.name} completion bash\`; do not edit.`,
    `# Install: ${root.name} completion bash > ~/.local/share/bash-completion/completions/${root.name}`,
    `# (or add \`source <(${root.name} completion bash)\` to ~/.bashrc). Needs bash 4.3 or newer.`,
    '',
    '# The canonical name of the subcommand that word $2 names under command path $1 (aliases resolved).',
    lookup(`${fn}_subcommand`, commands.flatMap(subcommandCases)),
    '# The words that name subcommands of command path $1, one a line.',
    lookup(
      `${fn}_subcommands`,
      commands
        .filter(({ command }) => command.subcommands.length > 0)
        .map(({ path, command }) => listCase(path.join(' '), subcommandWords(command))),
    ),
    "# Every option flag that applies under command path $1 (its own and its ancestors'), one a line.",
    lookup(
      `${fn}_options`,
      commands.map(({ path, optionsInScope }) =>
        listCase(path.join(' '), optionsInScope.flatMap(optionFlags)),
      ),
    ),
    '# What option $2 declared by command path $1 takes: "choices" and the values a line each, "files" or "any".',
    lookup(`${fn}_own_option_value`, commands.flatMap(optionValueCases)),
    '# The same for an option used under command path $1: declared there or by an ancestor (nearest wins).',
    '# Fails for an option that takes no value.',
    `${fn}_option_value() {`,
    '  local path=$1',
    `  until ${fn}_own_option_value "$path" "$2"; do`,
    "    [[ $path == *' '* ]] || return 1",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
    '    path=${path% *}',
    '  done',
    '}',
    '',
    '# The choices of positional argument number $2 (from 0) under command path $1, one a line.',
    lookup(
      `${fn}_argument_choices`,
      commands.flatMap((at) => argumentCases(at, fn)),
    ),
    '# The stored profile names, from `config profiles` (each line: a 2-character mark, then the name).',
    '# Quiet and empty when leadctl fails (no config yet, a broken file).',
    `${fn}_profiles() {`,
    '  local line',
    '  while IFS= read -r line; do',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
    '    printf \'%s\\n\' "${line:2}"',
    `  done < <(command ${plainWord(root.name)} ${PROFILE_LIST_ARGS} 2>/dev/null)`,
    '}',
    '',
    walker(fn, root.name),
  ].join('\n');
}

function lookup(name: string, cases: string[]): string {
  // ${2-}: the lookups are also called with one argument, and a user's shell may run with `set -u`.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
  return [`${name}() {`, '  case "$1:${2-}" in', ...cases, '    *) return 1 ;;', '  esac', '}', ''].join(
    '\n',
  );
}

/** `'leadctl config:'` matches a lookup by path alone; `'leadctl leads:--format'` by path and word. */
function pattern(path: string, word = ''): string {
  return `'${path}:${word}'`;
}

function listCase(path: string, words: string[], word = ''): string {
  const body = words.length > 0 ? `printf '%s\\n' ${words.map(plainWord).join(' ')}` : ':';
  return `    ${pattern(path, word)}) ${body} ;;`;
}

function subcommandWords(command: CompletionCommand): string[] {
  return command.subcommands.flatMap(commandNames);
}

function subcommandCases({ path, command }: CommandAtPath): string[] {
  return command.subcommands.map((sub) => {
    const patterns = commandNames(sub).map((name) => pattern(path.join(' '), plainWord(name)));
    return `    ${patterns.join('|')}) echo ${plainWord(sub.name)} ;;`;
  });
}

function optionValueCases({ path, command }: CommandAtPath): string[] {
  return command.options
    .filter((option) => option.takesValue)
    .map((option) => {
      const patterns = optionFlags(option).map((flag) => pattern(path.join(' '), flag));
      return `    ${patterns.join('|')}) ${valueKind(option)} ;;`;
    });
}

function valueKind(option: CompletionOption): string {
  if (option.completesProfiles) return 'echo profiles';
  if (option.choices.length > 0) return `printf '%s\\n' choices ${option.choices.map(plainWord).join(' ')}`;
  return option.completesFiles ? 'echo files' : 'echo any';
}

/**
 * Positionals are matched by number. A variadic last argument with choices answers for every number
 * from its own on, so the ones before it need a case of their own even when they offer nothing.
 */
function argumentCases({ path, command }: CommandAtPath, fn: string): string[] {
  const at = path.join(' ');
  const profiles = command.arguments
    .map((argument, index) => ({ argument, index }))
    .filter(({ argument }) => argument.completesProfiles)
    .map(({ index }) => `    ${pattern(at, String(index))}) ${fn}_profiles ;;`);
  const last = command.arguments.at(-1);
  const variadicChoices = last?.variadic && last.choices.length > 0 ? last.choices : [];
  const cases = command.arguments
    .map((argument, index) => ({ argument, index }))
    .filter(({ argument }) => argument.choices.length > 0 || variadicChoices.length > 0)
    .map(({ argument, index }) => listCase(at, argument.choices, String(index)));
  if (variadicChoices.length > 0)
    cases.push(`    ${pattern(at)}*) printf '%s\\n' ${variadicChoices.map(plainWord).join(' ')} ;;`);
  return [...profiles, ...cases];
}

function walker(fn: string, programName: string): string {
  return `${fn}() {
  local IFS=$'\\n' words=() i word path=${plainWord(programName)} next positional=0 only_positionals=0 takes_value=0
  # Glue \`--format\` \`=\` \`js\` (bash splits at = when COMP_WORDBREAKS has it) back into --format=js.
  for ((i = 0; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((i > 1)) && [[ \${words[-1]} == --* && ( $word == = || \${words[-1]} == *= ) && \${words[-1]} != *=?* ]]; then
      words[-1]+=$word
    else
      words+=("$word")
    fi
  done
  local last=$((\${#words[@]} - 1))
  # Walk the finished words: descend into subcommands, skip option values, count positionals.
  for ((i = 1; i < last; i++)); do
    word=\${words[i]}
    if ((takes_value)); then takes_value=0; continue; fi
    if ((!only_positionals)); then
      case $word in
        --) only_positionals=1; continue ;;
        --*=*) continue ;;
        -?*) ${fn}_option_value "$path" "$word" >/dev/null && takes_value=1; continue ;;
      esac
    fi
    if ((positional == 0 && !only_positionals)) && next=$(${fn}_subcommand "$path" "$word"); then
      path+=" $next"
    else
      ((positional++))
    fi
  done
  local cur=\${words[last]} option=''
  if ((takes_value)); then
    option=\${words[last - 1]}
  elif ((!only_positionals)) && [[ $cur == --*=* ]]; then
    option=\${cur%%=*}
    cur=\${cur#*=}
  fi
  if [[ -n $option ]]; then
    local -a value
    value=($(${fn}_option_value "$path" "$option"))
    case \${value[0]-} in
      choices) COMPREPLY=($(compgen -W "\${value[*]:1}" -- "$cur")) ;;
      profiles) COMPREPLY=($(compgen -W "$(${fn}_profiles)" -- "$cur")) ;;
      files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    # Without = in COMP_WORDBREAKS bash replaces the whole --format=js word: keep the --format= part.
    if [[ \${words[last]} == --*=* && \${COMP_WORDBREAKS-} != *=* ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$option=}"); fi
    return 0
  fi
  local candidates=''
  if [[ $cur != -* || only_positionals -eq 1 ]]; then
    ((positional == 0 && !only_positionals)) && candidates=$(${fn}_subcommands "$path")
    candidates+=$'\\n'$(${fn}_argument_choices "$path" "$positional")
  fi
  if [[ $cur == -* || ( -z $cur && -z \${candidates//$'\\n'/} ) ]] && ((!only_positionals)); then
    candidates=$(${fn}_options "$path")
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}

complete -F ${fn} ${plainWord(programName)}
`;
}
