// Tab completion from the commander tree (as cobra's `__complete`), so each shell's script stays a few lines:
// `value<TAB>description` a line, filtered by the word typed, or `:files` where a file name goes.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { type FlagSpec, ownFlags, visibleSubcommands } from '../help/spec.js';

export const FILES = ':files';

interface Candidate {
  value: string;
  description?: string;
}

/** `words`: everything after the program's name, the last one being typed ('' for a new word). */
export async function complete(
  root: CommandUnknownOpts,
  words: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const { glued, prefix } = glueEquals(words);
  const typed = glued.at(-1) ?? '';
  const state = walk(root, glued.slice(0, -1));
  const candidates = await candidatesFor(state, typed, env);
  if (candidates === FILES) return `${FILES}\n`;
  return candidates
    .filter((candidate) => candidate.value.startsWith(typed))
    .map(({ value, description }) => {
      const shown = value.slice(prefix.length);
      return description ? `${shown}\t${oneLine(description)}\n` : `${shown}\n`;
    })
    .join('');
}

/** bash splits `--format=js` at `=` into three words, read as one; answers drop `prefix` (bash keeps it). */
function glueEquals(words: string[]): { glued: string[]; prefix: string } {
  const glued: string[] = [];
  let prefix = '';
  for (const word of words) {
    const last = glued.at(-1) ?? '';
    const open = /^--[^=]+(=)?$/.exec(last);
    if (glued.length > 0 && open && (word === '=' || open[1])) {
      prefix = last;
      glued[glued.length - 1] = last + word;
    } else {
      prefix = '';
      glued.push(word);
    }
  }
  return { glued, prefix };
}

interface LineState {
  command: CommandUnknownOpts;
  /** The options in force here: the command's and its ancestors' (commander reads them anywhere). */
  flags: FlagSpec[];
  positionals: number;
  /** After `--`: only positionals. */
  onlyPositionals: boolean;
  /** The option whose value the next word is. */
  pendingOption?: FlagSpec;
}

/** Reads the finished words as commander would: subcommands entered, option values skipped, positionals counted. */
function walk(root: CommandUnknownOpts, words: string[]): LineState {
  const state: LineState = {
    command: root,
    flags: ownFlags(root, true),
    positionals: 0,
    onlyPositionals: false,
  };
  for (const word of words) {
    if (state.pendingOption) {
      delete state.pendingOption;
    } else if (!state.onlyPositionals && word === '--') {
      state.onlyPositionals = true;
    } else if (!state.onlyPositionals && word.startsWith('-') && word.length > 1) {
      const option = word.includes('=') ? undefined : findFlag(state.flags, word);
      if (option && option.type !== 'boolean') state.pendingOption = option;
    } else {
      const sub =
        state.positionals === 0 && !state.onlyPositionals ? subcommandNamed(state.command, word) : undefined;
      if (sub) {
        state.command = sub;
        // A command's own option wins over an ancestor's of the same name (each has its --help).
        const own = ownFlags(sub, true);
        state.flags = [...state.flags.filter((flag) => !findFlag(own, flag.name)), ...own];
      } else {
        state.positionals += 1;
      }
    }
  }
  return state;
}

async function candidatesFor(
  state: LineState,
  typed: string,
  env: NodeJS.ProcessEnv,
): Promise<Candidate[] | typeof FILES> {
  if (state.pendingOption) return valueCandidates(state.pendingOption, env);
  if (!state.onlyPositionals && /^--[^=]+=/.test(typed)) {
    const flagName = typed.slice(0, typed.indexOf('='));
    const flag = findFlag(state.flags, flagName);
    if (!flag || flag.type === 'boolean') return [];
    const values = await valueCandidates(flag, env);
    return values === FILES ? FILES : values.map((value) => ({ value: `${flagName}=${value.value}` }));
  }
  if (typed.startsWith('-') && !state.onlyPositionals) {
    return state.flags.flatMap((flag) =>
      [flag.name, ...(flag.short ? [flag.short] : [])].map((value) => ({
        value,
        description: flag.description,
      })),
    );
  }
  const { command } = state;
  const candidates: Candidate[] = [];
  if (state.positionals === 0 && !state.onlyPositionals) {
    candidates.push(...visibleSubcommands(command).flatMap(described));
    // `help <command>`: the help command's words are its siblings' names.
    if (command.name() === 'help' && command.parent) {
      candidates.push(
        ...visibleSubcommands(command.parent)
          .filter((sibling) => sibling.name() !== 'help')
          .flatMap(described),
      );
    }
  }
  const argument =
    command.registeredArguments[Math.min(state.positionals, command.registeredArguments.length - 1)];
  const reaches =
    argument && (argument.variadic || command.registeredArguments.indexOf(argument) === state.positionals);
  if (argument && reaches) {
    if (argument.name() === 'profile') candidates.push(...(await profiles(env)));
    candidates.push(...(argument.argChoices ?? []).map((value) => ({ value })));
  }
  return candidates;
}

async function valueCandidates(flag: FlagSpec, env: NodeJS.ProcessEnv): Promise<Candidate[] | typeof FILES> {
  if (flag.name === '--profile') return profiles(env);
  if (flag.choices) return flag.choices.map((value) => ({ value }));
  return flag.type === 'file' ? FILES : [];
}

/** The stored profiles' names; none when the config cannot be read (completion never complains). */
async function profiles(env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  try {
    const [{ readConfigFile }, { configFile }] = await Promise.all([
      import('../../config/store.js'),
      import('../../config/paths.js'),
    ]);
    return Object.keys(readConfigFile(configFile(env)).profiles).map((value) => ({ value }));
  } catch {
    return [];
  }
}

function findFlag(flags: FlagSpec[], word: string): FlagSpec | undefined {
  return flags.find((flag) => flag.name === word || flag.short === word);
}

function subcommandNamed(command: CommandUnknownOpts, word: string): CommandUnknownOpts | undefined {
  return visibleSubcommands(command).find((sub) => sub.name() === word || sub.aliases().includes(word));
}

function described(command: CommandUnknownOpts): Candidate[] {
  const description = command.description();
  return [command.name(), ...command.aliases()].map((value) => ({ value, description }));
}

function oneLine(text: string): string {
  return text.split('\n')[0]?.replaceAll('\t', ' ').trim() ?? '';
}

// The scripts `leadctl completion <shell>` prints: each passes the words to `leadctl __complete` and
// hands back what it prints. Checked in under completions/ (scripts/update-completions.mjs).
export const SCRIPTS = {
  bash: `# bash completion for leadctl: \`leadctl __complete\` gives every answer. Generated; do not edit.
# Install: leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl
# (or add \`source <(leadctl completion bash)\` to ~/.bashrc).
_leadctl() {
  local IFS=$'\\n' reply
  reply=($(command leadctl __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ \${reply[0]-} == ${FILES} ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
  else
    COMPREPLY=("\${reply[@]%%$'\\t'*}")
  fi
}
complete -F _leadctl leadctl
`,
  zsh: `#compdef leadctl
# zsh completion for leadctl: \`leadctl __complete\` gives every answer. Generated; do not edit.
# Install: leadctl completion zsh > "\${fpath[1]}/_leadctl", then start a new shell.
_leadctl() {
  local line value; local -a reply described
  reply=("\${(@f)$(command leadctl __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  # --format=nd: what follows the = is the word completed.
  compset -P '--*='
  if [[ $reply[1] == ${FILES} ]]; then
    _files
    return
  fi
  for line in $reply; do
    [[ -n $line ]] || continue
    value=\${line%%$'\\t'*}
    # _describe reads value:description, so a colon in the value is escaped.
    described+=("\${\${value#$IPREFIX}//:/\\\\:}\${line:\${#value}}")
  done
  described=("\${(@)described//$'\\t'/:}")
  _describe -t values leadctl described
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _leadctl "$@"; else compdef _leadctl leadctl; fi
`,
  fish: `# fish completion for leadctl: \`leadctl __complete\` gives every answer. Generated; do not edit.
# Install: leadctl completion fish > ~/.config/fish/completions/leadctl.fish
function __leadctl_complete
    set -l reply (command leadctl __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
    if test "$reply[1]" = ${FILES}
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $reply
    end
end
complete -c leadctl -e
complete -c leadctl -f -a '(__leadctl_complete)'
`,
};
