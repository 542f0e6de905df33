# bash completion for leadctl: `leadctl __complete` gives every answer. Generated; do not edit.
# Install: leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl
# (or add `source <(leadctl completion bash)` to ~/.bashrc).
_leadctl() {
  local IFS=$'\n' reply
  reply=($(command leadctl __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ ${reply[0]-} == :files ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
  else
    COMPREPLY=("${reply[@]%%$'\t'*}")
  fi
}
complete -F _leadctl leadctl
