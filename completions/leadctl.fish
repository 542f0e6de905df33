# fish completion for leadctl: `leadctl __complete` gives every answer. Generated; do not edit.
# Install: leadctl completion fish > ~/.config/fish/completions/leadctl.fish
function __leadctl_complete
    set -l reply (command leadctl __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
    if test "$reply[1]" = :files
        __fish_complete_path (commandline -ct)
    else
        printf '%s\n' $reply
    end
end
complete -c leadctl -e
complete -c leadctl -f -a '(__leadctl_complete)'
