// The fish completion script: `complete` lines whose conditions ask one generated helper where the
// command line stands (which command, how many positionals), so nested commands and global options
// with values anywhere on the line are read the way commander reads them.
import {
  type CommandAtPath,
  type CompletionCommand,
  type CompletionOption,
  commandNames,
  commandsByPath,
  functionPrefix,
  oneLine,
  optionFlags,
  PROFILE_LIST_ARGS,
  plainWord,
} from './command-tree.js';

export function fishScript(root: CompletionCommand): string {
  const fn = `_${functionPrefix(root.name)}`;
  const program = plainWord(root.name);
  const commands = commandsByPath(root);
  const offeredAbove = new Map<string, Set<string>>();
  return [
    `# fish completion for ${program}: generated from its commands by \`${program} completion fish\`; do not edit.`,
    `# Install: ${program} completion fish > ~/.config/fish/completions/${program}.fish`,
    '',
    stateFunctions(fn, program, commands),
    `complete -c ${program} -e`,
    '# Nothing offers files unless it says so (-F).',
    `complete -c ${program} -f`,
    ...commands.flatMap((at) => commandLines(fn, program, at, offeredAbove)),
    '',
  ].join('\n');
}

function commandLines(
  fn: string,
  program: string,
  { path, command }: CommandAtPath,
  offeredAbove: Map<string, Set<string>>,
): string[] {
  const at = path.join(' ');
  const lines = [`# ${at}`];
  for (const sub of command.subcommands) {
    for (const name of commandNames(sub)) {
      lines.push(
        `complete -c ${program} -n '${fn}_argument_at "${at}" 0' -a ${plainWord(name)} -d ${quote(sub.description)}`,
      );
    }
  }
  if (command.subcommands.length === 0) {
    command.arguments.forEach((argument, index) => {
      if (argument.completesProfiles) {
        lines.push(`complete -c ${program} -n '${fn}_argument_at "${at}" ${index}' -a '(${fn}_profiles)'`);
      }
      if (argument.choices.length === 0) return;
      const test = argument.variadic ? 'argument_from' : 'argument_at';
      const values = argument.choices.map(plainWord).join(' ');
      lines.push(`complete -c ${program} -n '${fn}_${test} "${at}" ${index}' -a '${values}'`);
    });
  }
  // Options apply to the command and everything under it; the root's need no condition at all.
  const condition = path.length === 1 ? '' : ` -n '${fn}_within "${at}"'`;
  for (const option of ownOptions(command, path, offeredAbove))
    lines.push(`complete -c ${program}${condition}${optionSpec(option, fn)}`);
  return lines;
}

/**
 * Every command repeats the root's `-h, --help`: an option an ancestor already offers is left to it.
 * `offeredAbove` maps a path to the flags offered there or above; parents are visited before children.
 */
function ownOptions(
  command: CompletionCommand,
  path: string[],
  offeredAbove: Map<string, Set<string>>,
): CompletionOption[] {
  const above = offeredAbove.get(path.slice(0, -1).join(' ')) ?? new Set<string>();
  const own = command.options.filter((option) => !optionFlags(option).every((flag) => above.has(flag)));
  offeredAbove.set(path.join(' '), new Set([...above, ...command.options.flatMap(optionFlags)]));
  return own;
}

function optionSpec(option: CompletionOption, fn: string): string {
  const names = optionFlags(option).map((flag) => {
    if (flag.startsWith('--')) return ` -l ${plainWord(flag.slice(2))}`;
    return flag.length === 2 ? ` -s ${plainWord(flag.slice(1))}` : ` -o ${plainWord(flag.slice(1))}`;
  });
  let value = '';
  if (option.completesProfiles) value = ` -x -a '(${fn}_profiles)'`;
  else if (option.takesValue && option.choices.length > 0)
    value = ` -x -a '${option.choices.map(plainWord).join(' ')}'`;
  else if (option.takesValue) value = option.completesFiles ? ' -r -F' : ' -x';
  return `${names.join('')}${value} -d ${quote(option.description)}`;
}

function quote(text: string): string {
  return `'${oneLine(text).replace(/[\\']/g, '\\$&')}'`;
}

/** Walks the typed words as commander would: options' values skipped, subcommands entered, positionals counted. */
function stateFunctions(fn: string, program: string, commands: CommandAtPath[]): string {
  const subcommandCases = commands.flatMap(({ path, command }) =>
    command.subcommands.map(
      (sub) =>
        `        case ${commandNames(sub)
          .map((name) => `'${path.join(' ')}:${plainWord(name)}'`)
          .join(' ')}\n            echo ${plainWord(sub.name)}`,
    ),
  );
  const valueOptions = commands.flatMap(({ path, optionsInScope }) =>
    optionsInScope
      .filter((option) => option.takesValue)
      .flatMap((option) => optionFlags(option).map((flag) => `'${path.join(' ')}:${plainWord(flag)}'`)),
  );
  return `function ${fn}_subcommand -a path word
    switch "$path:$word"
${subcommandCases.join('\n')}
        case '*'
            return 1
    end
end

function ${fn}_takes_value -a path flag
    contains -- "$path:$flag" ${valueOptions.join(' ')}
end

# Prints the command path ("${program} config set"), then how many positionals follow it.
function ${fn}_state
    set -l path ${program}
    set -l positional 0
    set -l takes_value 0
    set -l only_positionals 0
    for word in (commandline -opc)[2..-1]
        if test $takes_value = 1
            set takes_value 0
            continue
        end
        if test $only_positionals = 0
            switch $word
                case --
                    set only_positionals 1
                    continue
                case '--*=*'
                    continue
                case '-?*'
                    ${fn}_takes_value $path $word; and set takes_value 1
                    continue
            end
        end
        set -l next
        if test $positional = 0 -a $only_positionals = 0; and set next (${fn}_subcommand $path $word)
            set path "$path $next"
        else
            set positional (math $positional + 1)
        end
    end
    echo $path
    echo $positional
end

# The stored profile names, from \`config profiles\` (each line: a 2-character mark, then the name).
function ${fn}_profiles
    command ${program} ${PROFILE_LIST_ARGS} 2>/dev/null | string sub -s 3
end

function ${fn}_within -a prefix
    set -l state (${fn}_state)
    test "$state[1]" = "$prefix"; or string match -q -- "$prefix *" "$state[1]"
end

function ${fn}_argument_at -a path index
    set -l state (${fn}_state)
    test "$state[1]" = "$path" -a "$state[2]" = "$index"
end

function ${fn}_argument_from -a path index
    set -l state (${fn}_state)
    test "$state[1]" = "$path" -a "$state[2]" -ge "$index"
end
`;
}
