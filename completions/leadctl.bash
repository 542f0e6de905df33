# bash completion for leadctl: generated from its commands by `leadctl completion bash`; do not edit.
# Install: leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl
# (or add `source <(leadctl completion bash)` to ~/.bashrc). Needs bash 4.3 or newer.

# The canonical name of the subcommand that word $2 names under command path $1 (aliases resolved).
_leadctl_subcommand() {
  case "$1:${2-}" in
    'leadctl:leads') echo leads ;;
    'leadctl:history') echo history ;;
    'leadctl:search') echo search ;;
    'leadctl:config') echo config ;;
    'leadctl:completion') echo completion ;;
    'leadctl:sandbox') echo sandbox ;;
    'leadctl:auth') echo auth ;;
    'leadctl:sync') echo sync ;;
    'leadctl:usage') echo usage ;;
    'leadctl:api') echo api ;;
    'leadctl:mcp') echo mcp ;;
    'leadctl:help') echo help ;;
    'leadctl config:set') echo set ;;
    'leadctl config:get') echo get ;;
    'leadctl config:unset') echo unset ;;
    'leadctl config:list') echo list ;;
    'leadctl config:profiles') echo profiles ;;
    'leadctl config:remove-profile') echo remove-profile ;;
    'leadctl config:path') echo path ;;
    'leadctl config:help') echo help ;;
    'leadctl auth:login') echo login ;;
    'leadctl auth:logout') echo logout ;;
    'leadctl auth:status') echo status ;;
    'leadctl auth:help') echo help ;;
    'leadctl help:environment') echo environment ;;
    'leadctl help:exit-codes') echo exit-codes ;;
    'leadctl help:leads') echo leads ;;
    'leadctl help:history') echo history ;;
    'leadctl help:search') echo search ;;
    'leadctl help:config') echo config ;;
    'leadctl help:completion') echo completion ;;
    'leadctl help:sandbox') echo sandbox ;;
    'leadctl help:auth') echo auth ;;
    'leadctl help:sync') echo sync ;;
    'leadctl help:usage') echo usage ;;
    'leadctl help:api') echo api ;;
    'leadctl help:mcp') echo mcp ;;
    *) return 1 ;;
  esac
}

# The words that name subcommands of command path $1, one a line.
_leadctl_subcommands() {
  case "$1:${2-}" in
    'leadctl:') printf '%s\n' leads history search config completion sandbox auth sync usage api mcp help ;;
    'leadctl config:') printf '%s\n' set get unset list profiles remove-profile path help ;;
    'leadctl auth:') printf '%s\n' login logout status help ;;
    'leadctl help:') printf '%s\n' environment exit-codes leads history search config completion sandbox auth sync usage api mcp ;;
    *) return 1 ;;
  esac
}

# Every option flag that applies under command path $1 (its own and its ancestors'), one a line.
_leadctl_options() {
  case "$1:${2-}" in
    'leadctl:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl leads:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --page --limit -a --all --max-items --since --concurrency --checkpoint --max-requests -f --format --json --csv --fields --where --no-header --bom --no-bom --no-sanitize -o --output --append -h --help ;;
    'leadctl history:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --page --limit -a --all --max-items --since --concurrency --checkpoint --max-requests -f --format --json --csv --fields --where --no-header --bom --no-bom --no-sanitize -o --output --append -h --help ;;
    'leadctl search:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -l --location -r --radius --input --columns --ignore-extra --max-input-rows --max-input-bytes --unique --max-requests --resume --resend-unknown --dry-run --concurrency --db --new-only --cache --exclude -f --format --json --csv --fields --where --no-header --bom --no-bom --no-sanitize -o --output -h --help ;;
    'leadctl config:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl config set:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl config get:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --reveal -h --help ;;
    'leadctl config unset:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl config list:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --reveal --json -h --help ;;
    'leadctl config profiles:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --json -h --help ;;
    'leadctl config remove-profile:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -y --yes -h --help ;;
    'leadctl config path:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl config help:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl completion:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl sandbox:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --port --host --plan --variant --leads --history --latency --fail-rate --reset-rate --seed --daily-limit --live-search-limit --hostile-data -h --help ;;
    'leadctl auth:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl auth login:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --with-token -h --help ;;
    'leadctl auth logout:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl auth status:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl auth help:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl sync:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --db -h --help ;;
    'leadctl usage:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --json -h --help ;;
    'leadctl api:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -X --method -F --field -f --raw-field --paginate -h --help ;;
    'leadctl mcp:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager --max-requests --max-searches --max-searches-per-day --read-only --tools -h --help ;;
    'leadctl help:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help environment:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help exit-codes:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help leads:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help history:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help search:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help config:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help completion:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help sandbox:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help auth:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help sync:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help usage:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help api:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    'leadctl help mcp:') printf '%s\n' -V --version --api-key --base-url --profile --sandbox --timeout --retries --max-wait -q --quiet --verbose --no-color --no-pager -h --help ;;
    *) return 1 ;;
  esac
}

# What option $2 declared by command path $1 takes: "choices" and the values a line each, "files" or "any".
_leadctl_own_option_value() {
  case "$1:${2-}" in
    'leadctl:--api-key') echo any ;;
    'leadctl:--base-url') echo any ;;
    'leadctl:--profile') echo profiles ;;
    'leadctl:--timeout') echo any ;;
    'leadctl:--retries') echo any ;;
    'leadctl:--max-wait') echo any ;;
    'leadctl leads:--page') echo any ;;
    'leadctl leads:--limit') echo any ;;
    'leadctl leads:--max-items') echo any ;;
    'leadctl leads:--since') echo any ;;
    'leadctl leads:--concurrency') echo any ;;
    'leadctl leads:--checkpoint') echo files ;;
    'leadctl leads:--max-requests') echo any ;;
    'leadctl leads:-f'|'leadctl leads:--format') printf '%s\n' choices table json ndjson csv tsv xlsx geojson ;;
    'leadctl leads:--fields') echo any ;;
    'leadctl leads:--where') echo any ;;
    'leadctl leads:-o'|'leadctl leads:--output') echo files ;;
    'leadctl history:--page') echo any ;;
    'leadctl history:--limit') echo any ;;
    'leadctl history:--max-items') echo any ;;
    'leadctl history:--since') echo any ;;
    'leadctl history:--concurrency') echo any ;;
    'leadctl history:--checkpoint') echo files ;;
    'leadctl history:--max-requests') echo any ;;
    'leadctl history:-f'|'leadctl history:--format') printf '%s\n' choices table json ndjson csv tsv xlsx geojson ;;
    'leadctl history:--fields') echo any ;;
    'leadctl history:--where') echo any ;;
    'leadctl history:-o'|'leadctl history:--output') echo files ;;
    'leadctl search:-l'|'leadctl search:--location') echo any ;;
    'leadctl search:-r'|'leadctl search:--radius') echo any ;;
    'leadctl search:--input') echo files ;;
    'leadctl search:--columns') echo any ;;
    'leadctl search:--max-input-rows') echo any ;;
    'leadctl search:--max-input-bytes') echo any ;;
    'leadctl search:--max-requests') echo any ;;
    'leadctl search:--concurrency') echo any ;;
    'leadctl search:--db') echo files ;;
    'leadctl search:--cache') echo any ;;
    'leadctl search:--exclude') echo files ;;
    'leadctl search:-f'|'leadctl search:--format') printf '%s\n' choices table json ndjson csv tsv xlsx geojson ;;
    'leadctl search:--fields') echo any ;;
    'leadctl search:--where') echo any ;;
    'leadctl search:-o'|'leadctl search:--output') echo files ;;
    'leadctl sandbox:--port') echo any ;;
    'leadctl sandbox:--host') echo any ;;
    'leadctl sandbox:--plan') printf '%s\n' choices free pro agency ;;
    'leadctl sandbox:--variant') printf '%s\n' choices a b ;;
    'leadctl sandbox:--leads') echo any ;;
    'leadctl sandbox:--history') echo any ;;
    'leadctl sandbox:--latency') echo any ;;
    'leadctl sandbox:--fail-rate') echo any ;;
    'leadctl sandbox:--reset-rate') echo any ;;
    'leadctl sandbox:--seed') echo any ;;
    'leadctl sandbox:--daily-limit') echo any ;;
    'leadctl sandbox:--live-search-limit') echo any ;;
    'leadctl sync:--db') echo files ;;
    'leadctl api:-X'|'leadctl api:--method') echo any ;;
    'leadctl api:-F'|'leadctl api:--field') echo any ;;
    'leadctl api:-f'|'leadctl api:--raw-field') echo any ;;
    'leadctl mcp:--max-requests') echo any ;;
    'leadctl mcp:--max-searches') echo any ;;
    'leadctl mcp:--max-searches-per-day') echo any ;;
    'leadctl mcp:--tools') echo any ;;
    *) return 1 ;;
  esac
}

# The same for an option used under command path $1: declared there or by an ancestor (nearest wins).
# Fails for an option that takes no value.
_leadctl_option_value() {
  local path=$1
  until _leadctl_own_option_value "$path" "$2"; do
    [[ $path == *' '* ]] || return 1
    path=${path% *}
  done
}

# The choices of positional argument number $2 (from 0) under command path $1, one a line.
_leadctl_argument_choices() {
  case "$1:${2-}" in
    'leadctl config set:0') printf '%s\n' api-key base-url format timeout retries max-wait plan bom ;;
    'leadctl config get:0') printf '%s\n' api-key base-url format timeout retries max-wait plan bom ;;
    'leadctl config remove-profile:0') _leadctl_profiles ;;
    'leadctl config help:0') printf '%s\n' set get unset list profiles remove-profile path ;;
    'leadctl completion:0') printf '%s\n' bash zsh fish ;;
    'leadctl auth help:0') printf '%s\n' login logout status ;;
    *) return 1 ;;
  esac
}

# The stored profile names, from `config profiles` (each line: a 2-character mark, then the name).
# Quiet and empty when leadctl fails (no config yet, a broken file).
_leadctl_profiles() {
  local line
  while IFS= read -r line; do
    printf '%s\n' "${line:2}"
  done < <(command leadctl config profiles 2>/dev/null)
}

_leadctl() {
  local IFS=$'\n' words=() i word path=leadctl next positional=0 only_positionals=0 takes_value=0
  # Glue `--format` `=` `js` (bash splits at = when COMP_WORDBREAKS has it) back into --format=js.
  for ((i = 0; i <= COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if ((i > 1)) && [[ ${words[-1]} == --* && ( $word == = || ${words[-1]} == *= ) && ${words[-1]} != *=?* ]]; then
      words[-1]+=$word
    else
      words+=("$word")
    fi
  done
  local last=$((${#words[@]} - 1))
  # Walk the finished words: descend into subcommands, skip option values, count positionals.
  for ((i = 1; i < last; i++)); do
    word=${words[i]}
    if ((takes_value)); then takes_value=0; continue; fi
    if ((!only_positionals)); then
      case $word in
        --) only_positionals=1; continue ;;
        --*=*) continue ;;
        -?*) _leadctl_option_value "$path" "$word" >/dev/null && takes_value=1; continue ;;
      esac
    fi
    if ((positional == 0 && !only_positionals)) && next=$(_leadctl_subcommand "$path" "$word"); then
      path+=" $next"
    else
      ((positional++))
    fi
  done
  local cur=${words[last]} option=''
  if ((takes_value)); then
    option=${words[last - 1]}
  elif ((!only_positionals)) && [[ $cur == --*=* ]]; then
    option=${cur%%=*}
    cur=${cur#*=}
  fi
  if [[ -n $option ]]; then
    local -a value
    value=($(_leadctl_option_value "$path" "$option"))
    case ${value[0]-} in
      choices) COMPREPLY=($(compgen -W "${value[*]:1}" -- "$cur")) ;;
      profiles) COMPREPLY=($(compgen -W "$(_leadctl_profiles)" -- "$cur")) ;;
      files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    # Without = in COMP_WORDBREAKS bash replaces the whole --format=js word: keep the --format= part.
    if [[ ${words[last]} == --*=* && ${COMP_WORDBREAKS-} != *=* ]]; then COMPREPLY=("${COMPREPLY[@]/#/$option=}"); fi
    return 0
  fi
  local candidates=''
  if [[ $cur != -* || only_positionals -eq 1 ]]; then
    ((positional == 0 && !only_positionals)) && candidates=$(_leadctl_subcommands "$path")
    candidates+=$'\n'$(_leadctl_argument_choices "$path" "$positional")
  fi
  if [[ $cur == -* || ( -z $cur && -z ${candidates//$'\n'/} ) ]] && ((!only_positionals)); then
    candidates=$(_leadctl_options "$path")
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}

complete -F _leadctl leadctl
