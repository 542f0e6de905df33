# fish completion for leadctl: generated from its commands by `leadctl completion fish`; do not edit.
# Install: leadctl completion fish > ~/.config/fish/completions/leadctl.fish

function __leadctl_subcommand -a path word
    switch "$path:$word"
        case 'leadctl:leads'
            echo leads
        case 'leadctl:history'
            echo history
        case 'leadctl:search'
            echo search
        case 'leadctl:config'
            echo config
        case 'leadctl:completion'
            echo completion
        case 'leadctl:sandbox'
            echo sandbox
        case 'leadctl:auth'
            echo auth
        case 'leadctl:sync'
            echo sync
        case 'leadctl:usage'
            echo usage
        case 'leadctl:api'
            echo api
        case 'leadctl:mcp'
            echo mcp
        case 'leadctl:help'
            echo help
        case 'leadctl config:set'
            echo set
        case 'leadctl config:get'
            echo get
        case 'leadctl config:unset'
            echo unset
        case 'leadctl config:list'
            echo list
        case 'leadctl config:profiles'
            echo profiles
        case 'leadctl config:remove-profile'
            echo remove-profile
        case 'leadctl config:path'
            echo path
        case 'leadctl config:help'
            echo help
        case 'leadctl auth:login'
            echo login
        case 'leadctl auth:logout'
            echo logout
        case 'leadctl auth:status'
            echo status
        case 'leadctl auth:help'
            echo help
        case 'leadctl help:environment'
            echo environment
        case 'leadctl help:exit-codes'
            echo exit-codes
        case 'leadctl help:leads'
            echo leads
        case 'leadctl help:history'
            echo history
        case 'leadctl help:search'
            echo search
        case 'leadctl help:config'
            echo config
        case 'leadctl help:completion'
            echo completion
        case 'leadctl help:sandbox'
            echo sandbox
        case 'leadctl help:auth'
            echo auth
        case 'leadctl help:sync'
            echo sync
        case 'leadctl help:usage'
            echo usage
        case 'leadctl help:api'
            echo api
        case 'leadctl help:mcp'
            echo mcp
        case '*'
            return 1
    end
end

function __leadctl_takes_value -a path flag
    contains -- "$path:$flag" 'leadctl:--api-key' 'leadctl:--base-url' 'leadctl:--profile' 'leadctl:--timeout' 'leadctl:--retries' 'leadctl:--max-wait' 'leadctl leads:--api-key' 'leadctl leads:--base-url' 'leadctl leads:--profile' 'leadctl leads:--timeout' 'leadctl leads:--retries' 'leadctl leads:--max-wait' 'leadctl leads:--page' 'leadctl leads:--limit' 'leadctl leads:--max-items' 'leadctl leads:--since' 'leadctl leads:--concurrency' 'leadctl leads:--checkpoint' 'leadctl leads:--max-requests' 'leadctl leads:-f' 'leadctl leads:--format' 'leadctl leads:--fields' 'leadctl leads:--where' 'leadctl leads:-o' 'leadctl leads:--output' 'leadctl history:--api-key' 'leadctl history:--base-url' 'leadctl history:--profile' 'leadctl history:--timeout' 'leadctl history:--retries' 'leadctl history:--max-wait' 'leadctl history:--page' 'leadctl history:--limit' 'leadctl history:--max-items' 'leadctl history:--since' 'leadctl history:--concurrency' 'leadctl history:--checkpoint' 'leadctl history:--max-requests' 'leadctl history:-f' 'leadctl history:--format' 'leadctl history:--fields' 'leadctl history:--where' 'leadctl history:-o' 'leadctl history:--output' 'leadctl search:--api-key' 'leadctl search:--base-url' 'leadctl search:--profile' 'leadctl search:--timeout' 'leadctl search:--retries' 'leadctl search:--max-wait' 'leadctl search:-l' 'leadctl search:--location' 'leadctl search:-r' 'leadctl search:--radius' 'leadctl search:--input' 'leadctl search:--columns' 'leadctl search:--max-input-rows' 'leadctl search:--max-input-bytes' 'leadctl search:--max-requests' 'leadctl search:--concurrency' 'leadctl search:--db' 'leadctl search:--cache' 'leadctl search:--exclude' 'leadctl search:-f' 'leadctl search:--format' 'leadctl search:--fields' 'leadctl search:--where' 'leadctl search:-o' 'leadctl search:--output' 'leadctl config:--api-key' 'leadctl config:--base-url' 'leadctl config:--profile' 'leadctl config:--timeout' 'leadctl config:--retries' 'leadctl config:--max-wait' 'leadctl config set:--api-key' 'leadctl config set:--base-url' 'leadctl config set:--profile' 'leadctl config set:--timeout' 'leadctl config set:--retries' 'leadctl config set:--max-wait' 'leadctl config get:--api-key' 'leadctl config get:--base-url' 'leadctl config get:--profile' 'leadctl config get:--timeout' 'leadctl config get:--retries' 'leadctl config get:--max-wait' 'leadctl config unset:--api-key' 'leadctl config unset:--base-url' 'leadctl config unset:--profile' 'leadctl config unset:--timeout' 'leadctl config unset:--retries' 'leadctl config unset:--max-wait' 'leadctl config list:--api-key' 'leadctl config list:--base-url' 'leadctl config list:--profile' 'leadctl config list:--timeout' 'leadctl config list:--retries' 'leadctl config list:--max-wait' 'leadctl config profiles:--api-key' 'leadctl config profiles:--base-url' 'leadctl config profiles:--profile' 'leadctl config profiles:--timeout' 'leadctl config profiles:--retries' 'leadctl config profiles:--max-wait' 'leadctl config remove-profile:--api-key' 'leadctl config remove-profile:--base-url' 'leadctl config remove-profile:--profile' 'leadctl config remove-profile:--timeout' 'leadctl config remove-profile:--retries' 'leadctl config remove-profile:--max-wait' 'leadctl config path:--api-key' 'leadctl config path:--base-url' 'leadctl config path:--profile' 'leadctl config path:--timeout' 'leadctl config path:--retries' 'leadctl config path:--max-wait' 'leadctl config help:--api-key' 'leadctl config help:--base-url' 'leadctl config help:--profile' 'leadctl config help:--timeout' 'leadctl config help:--retries' 'leadctl config help:--max-wait' 'leadctl completion:--api-key' 'leadctl completion:--base-url' 'leadctl completion:--profile' 'leadctl completion:--timeout' 'leadctl completion:--retries' 'leadctl completion:--max-wait' 'leadctl sandbox:--api-key' 'leadctl sandbox:--base-url' 'leadctl sandbox:--profile' 'leadctl sandbox:--timeout' 'leadctl sandbox:--retries' 'leadctl sandbox:--max-wait' 'leadctl sandbox:--port' 'leadctl sandbox:--host' 'leadctl sandbox:--plan' 'leadctl sandbox:--variant' 'leadctl sandbox:--leads' 'leadctl sandbox:--history' 'leadctl sandbox:--latency' 'leadctl sandbox:--fail-rate' 'leadctl sandbox:--reset-rate' 'leadctl sandbox:--seed' 'leadctl sandbox:--daily-limit' 'leadctl sandbox:--live-search-limit' 'leadctl auth:--api-key' 'leadctl auth:--base-url' 'leadctl auth:--profile' 'leadctl auth:--timeout' 'leadctl auth:--retries' 'leadctl auth:--max-wait' 'leadctl auth login:--api-key' 'leadctl auth login:--base-url' 'leadctl auth login:--profile' 'leadctl auth login:--timeout' 'leadctl auth login:--retries' 'leadctl auth login:--max-wait' 'leadctl auth logout:--api-key' 'leadctl auth logout:--base-url' 'leadctl auth logout:--profile' 'leadctl auth logout:--timeout' 'leadctl auth logout:--retries' 'leadctl auth logout:--max-wait' 'leadctl auth status:--api-key' 'leadctl auth status:--base-url' 'leadctl auth status:--profile' 'leadctl auth status:--timeout' 'leadctl auth status:--retries' 'leadctl auth status:--max-wait' 'leadctl auth help:--api-key' 'leadctl auth help:--base-url' 'leadctl auth help:--profile' 'leadctl auth help:--timeout' 'leadctl auth help:--retries' 'leadctl auth help:--max-wait' 'leadctl sync:--api-key' 'leadctl sync:--base-url' 'leadctl sync:--profile' 'leadctl sync:--timeout' 'leadctl sync:--retries' 'leadctl sync:--max-wait' 'leadctl sync:--db' 'leadctl usage:--api-key' 'leadctl usage:--base-url' 'leadctl usage:--profile' 'leadctl usage:--timeout' 'leadctl usage:--retries' 'leadctl usage:--max-wait' 'leadctl api:--api-key' 'leadctl api:--base-url' 'leadctl api:--profile' 'leadctl api:--timeout' 'leadctl api:--retries' 'leadctl api:--max-wait' 'leadctl api:-X' 'leadctl api:--method' 'leadctl api:-F' 'leadctl api:--field' 'leadctl api:-f' 'leadctl api:--raw-field' 'leadctl mcp:--api-key' 'leadctl mcp:--base-url' 'leadctl mcp:--profile' 'leadctl mcp:--timeout' 'leadctl mcp:--retries' 'leadctl mcp:--max-wait' 'leadctl mcp:--max-requests' 'leadctl mcp:--max-searches' 'leadctl mcp:--max-searches-per-day' 'leadctl mcp:--tools' 'leadctl help:--api-key' 'leadctl help:--base-url' 'leadctl help:--profile' 'leadctl help:--timeout' 'leadctl help:--retries' 'leadctl help:--max-wait' 'leadctl help environment:--api-key' 'leadctl help environment:--base-url' 'leadctl help environment:--profile' 'leadctl help environment:--timeout' 'leadctl help environment:--retries' 'leadctl help environment:--max-wait' 'leadctl help exit-codes:--api-key' 'leadctl help exit-codes:--base-url' 'leadctl help exit-codes:--profile' 'leadctl help exit-codes:--timeout' 'leadctl help exit-codes:--retries' 'leadctl help exit-codes:--max-wait' 'leadctl help leads:--api-key' 'leadctl help leads:--base-url' 'leadctl help leads:--profile' 'leadctl help leads:--timeout' 'leadctl help leads:--retries' 'leadctl help leads:--max-wait' 'leadctl help history:--api-key' 'leadctl help history:--base-url' 'leadctl help history:--profile' 'leadctl help history:--timeout' 'leadctl help history:--retries' 'leadctl help history:--max-wait' 'leadctl help search:--api-key' 'leadctl help search:--base-url' 'leadctl help search:--profile' 'leadctl help search:--timeout' 'leadctl help search:--retries' 'leadctl help search:--max-wait' 'leadctl help config:--api-key' 'leadctl help config:--base-url' 'leadctl help config:--profile' 'leadctl help config:--timeout' 'leadctl help config:--retries' 'leadctl help config:--max-wait' 'leadctl help completion:--api-key' 'leadctl help completion:--base-url' 'leadctl help completion:--profile' 'leadctl help completion:--timeout' 'leadctl help completion:--retries' 'leadctl help completion:--max-wait' 'leadctl help sandbox:--api-key' 'leadctl help sandbox:--base-url' 'leadctl help sandbox:--profile' 'leadctl help sandbox:--timeout' 'leadctl help sandbox:--retries' 'leadctl help sandbox:--max-wait' 'leadctl help auth:--api-key' 'leadctl help auth:--base-url' 'leadctl help auth:--profile' 'leadctl help auth:--timeout' 'leadctl help auth:--retries' 'leadctl help auth:--max-wait' 'leadctl help sync:--api-key' 'leadctl help sync:--base-url' 'leadctl help sync:--profile' 'leadctl help sync:--timeout' 'leadctl help sync:--retries' 'leadctl help sync:--max-wait' 'leadctl help usage:--api-key' 'leadctl help usage:--base-url' 'leadctl help usage:--profile' 'leadctl help usage:--timeout' 'leadctl help usage:--retries' 'leadctl help usage:--max-wait' 'leadctl help api:--api-key' 'leadctl help api:--base-url' 'leadctl help api:--profile' 'leadctl help api:--timeout' 'leadctl help api:--retries' 'leadctl help api:--max-wait' 'leadctl help mcp:--api-key' 'leadctl help mcp:--base-url' 'leadctl help mcp:--profile' 'leadctl help mcp:--timeout' 'leadctl help mcp:--retries' 'leadctl help mcp:--max-wait'
end

# Prints the command path ("leadctl config set"), then how many positionals follow it.
function __leadctl_state
    set -l path leadctl
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
                    __leadctl_takes_value $path $word; and set takes_value 1
                    continue
            end
        end
        set -l next
        if test $positional = 0 -a $only_positionals = 0; and set next (__leadctl_subcommand $path $word)
            set path "$path $next"
        else
            set positional (math $positional + 1)
        end
    end
    echo $path
    echo $positional
end

# The stored profile names, from `config profiles` (each line: a 2-character mark, then the name).
function __leadctl_profiles
    command leadctl config profiles 2>/dev/null | string sub -s 3
end

function __leadctl_within -a prefix
    set -l state (__leadctl_state)
    test "$state[1]" = "$prefix"; or string match -q -- "$prefix *" "$state[1]"
end

function __leadctl_argument_at -a path index
    set -l state (__leadctl_state)
    test "$state[1]" = "$path" -a "$state[2]" = "$index"
end

function __leadctl_argument_from -a path index
    set -l state (__leadctl_state)
    test "$state[1]" = "$path" -a "$state[2]" -ge "$index"
end

complete -c leadctl -e
# Nothing offers files unless it says so (-F).
complete -c leadctl -f
# leadctl
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a leads -d 'the account\'s saved leads, newest first'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a history -d 'the account\'s past searches, newest first'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a search -d 'run a new lead search: businesses by keyword and location'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a config -d 'read and change stored settings (per profile, in config.json)'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a completion -d 'print a shell completion script (bash, zsh or fish)'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a sandbox -d 'serve a local Lead Data API with realistic data, for trying scripts without spending quota'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a auth -d 'log in (store a checked base URL and key), log out, or check which ones a run uses'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a sync -d 'mirror saved leads and search history into a SQLite database (incremental; needs Node 22.13+)'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a usage -d 'requests and searches sent from this machine today and this month, beside the plan'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a api -d 'send a request to {base url}/api/v1/<path> with the key, retries and rate-limit waits; print the body as sent'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a mcp -d 'serve the API to AI assistants: a Model Context Protocol server on stdin/stdout'
complete -c leadctl -n '__leadctl_argument_at "leadctl" 0' -a help -d 'show help for a command, or a topic: environment, exit-codes'
complete -c leadctl -s V -l version -d 'print the version'
complete -c leadctl -l api-key -x -d 'API key (prefer `leadctl config set api-key`: flags show in the process list)'
complete -c leadctl -l base-url -x -d 'API base address; /api/v1/... is appended'
complete -c leadctl -l profile -x -a '(__leadctl_profiles)' -d 'stored profile to use (default: "default")'
complete -c leadctl -l sandbox -d 'run against the built-in sandbox on 127.0.0.1 (no key, no network)'
complete -c leadctl -l timeout -x -d 'seconds per request (default: 30)'
complete -c leadctl -l retries -x -d 'retries for 5xx and network errors (default: 3)'
complete -c leadctl -l max-wait -x -d 'longest single wait on a rate limit before giving up (default: 60)'
complete -c leadctl -s q -l quiet -d 'no progress and no notices on stderr'
complete -c leadctl -l verbose -d 'one stderr line per HTTP attempt; stack traces on errors'
complete -c leadctl -l no-color -d 'no colour on stderr or in tables'
complete -c leadctl -l no-pager -d 'no pager for long output on a terminal (also: LEADCTL_PAGER=cat)'
complete -c leadctl -s h -l help -d 'show help'
# leadctl leads
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l page -x -d 'page number, 1 or more (default: 1)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l limit -x -d 'page size, 1..100 (default: 25; 100 with --all)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -s a -l all -d 'every page, streamed in order'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l max-items -x -d 'stop after n items (pages as needed)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l since -x -d 'only items newer than an ISO date/time or a span like 24h, 7d'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l concurrency -x -d 'pages in flight with --all, 1..16 (default: 4)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l checkpoint -r -F -d 'only what is new since the last run with <file>; the first run exports everything'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l max-requests -x -d 'stop at n requests, retries included (exit 5, partial output kept)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -s f -l format -x -a 'table json ndjson csv tsv xlsx geojson' -d 'output format (default: table on a terminal, json otherwise)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l json -d 'shorthand for --format json'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l csv -d 'shorthand for --format csv'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l fields -x -d 'columns / keys to show, in this order; name:Company renames a column (headers, json keys; "..." quotes a name holding , or :); all: every field the server sends'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l where -x -d 'keep only items where FIELD OP VALUE holds (OP: = != < <= > >= ~ contains); FIELD: present, !FIELD: missing or empty; repeatable, all must hold'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l no-header -d 'csv, tsv and table without the header row'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l bom -d 'csv, tsv: start with a UTF-8 byte-order mark (for Excel; store it: config set bom true)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l no-bom -d 'csv, tsv: no byte-order mark, though the profile\'s bom is true'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l no-sanitize -d 'csv, tsv: don\'t neutralize cells a spreadsheet would run as formulas'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -s o -l output -r -F -d 'write to <file> (- is stdout); with no format option its extension picks one (.csv .tsv .json .ndjson .jsonl)'
complete -c leadctl -n '__leadctl_within "leadctl leads"' -l append -d 'csv, tsv, ndjson: add rows to the -o file (header only when new)'
# leadctl history
complete -c leadctl -n '__leadctl_within "leadctl history"' -l page -x -d 'page number, 1 or more (default: 1)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l limit -x -d 'page size, 1..100 (default: 25; 100 with --all)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -s a -l all -d 'every page, streamed in order'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l max-items -x -d 'stop after n items (pages as needed)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l since -x -d 'only items newer than an ISO date/time or a span like 24h, 7d'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l concurrency -x -d 'pages in flight with --all, 1..16 (default: 4)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l checkpoint -r -F -d 'only what is new since the last run with <file>; the first run exports everything'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l max-requests -x -d 'stop at n requests, retries included (exit 5, partial output kept)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -s f -l format -x -a 'table json ndjson csv tsv xlsx geojson' -d 'output format (default: table on a terminal, json otherwise)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l json -d 'shorthand for --format json'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l csv -d 'shorthand for --format csv'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l fields -x -d 'columns / keys to show, in this order; name:Company renames a column (headers, json keys; "..." quotes a name holding , or :); all: every field the server sends'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l where -x -d 'keep only items where FIELD OP VALUE holds (OP: = != < <= > >= ~ contains); FIELD: present, !FIELD: missing or empty; repeatable, all must hold'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l no-header -d 'csv, tsv and table without the header row'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l bom -d 'csv, tsv: start with a UTF-8 byte-order mark (for Excel; store it: config set bom true)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l no-bom -d 'csv, tsv: no byte-order mark, though the profile\'s bom is true'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l no-sanitize -d 'csv, tsv: don\'t neutralize cells a spreadsheet would run as formulas'
complete -c leadctl -n '__leadctl_within "leadctl history"' -s o -l output -r -F -d 'write to <file> (- is stdout); with no format option its extension picks one (.csv .tsv .json .ndjson .jsonl)'
complete -c leadctl -n '__leadctl_within "leadctl history"' -l append -d 'csv, tsv, ndjson: add rows to the -o file (header only when new)'
# leadctl search
complete -c leadctl -n '__leadctl_within "leadctl search"' -s l -l location -x -d 'city, state, or zip code (required)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -s r -l radius -x -d 'search radius in miles, 1..50 (default: the server\'s, 10)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l input -r -F -d 'batch: CSV (, ; or tab), .xlsx or JSON lines with query, location[, radius]; - reads stdin'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l columns -x -d 'batch: the input\'s own column names, e.g. query=Trade,location=City,radius=Miles'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l ignore-extra -d 'batch: skip the input\'s other columns (named on stderr) instead of refusing'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l max-input-rows -x -d 'batch: most rows the input may have (default: 50,000)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l max-input-bytes -x -d 'batch: largest input, e.g. 200M (default: 64M)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l unique -d 'batch: keep only the first result per place_id'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l max-requests -x -d 'batch: most requests the batch may spend'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l resume -d 'batch: continue a stopped batch from <file>.state (needs -o)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l resend-unknown -d 'batch, with --resume: send again the searches the stopped run sent without an answer'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l dry-run -d 'batch: check the input and show what it would send and what quota is left; send nothing'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l concurrency -x -d 'batch: searches in flight, 1..16 (default: 2)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l db -r -F -d 'keep every result in this SQLite database, with query, location and time'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l new-only -d 'write only places the database has never seen (--db, else sync\'s database)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l cache -x -d 'answer from the database if the same search ran within <span> (30m, 24h, 7d)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l exclude -r -F -d 'drop businesses you already have: a CSV or a leadctl database (docs/sync.md)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -s f -l format -x -a 'table json ndjson csv tsv xlsx geojson' -d 'output format (default: table on a terminal, json otherwise)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l json -d 'shorthand for --format json'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l csv -d 'shorthand for --format csv'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l fields -x -d 'columns / keys to show, in this order; name:Company renames a column (headers, json keys; "..." quotes a name holding , or :); all: every field the server sends'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l where -x -d 'keep only items where FIELD OP VALUE holds (OP: = != < <= > >= ~ contains); FIELD: present, !FIELD: missing or empty; repeatable, all must hold'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l no-header -d 'csv, tsv and table without the header row'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l bom -d 'csv, tsv: start with a UTF-8 byte-order mark (for Excel; store it: config set bom true)'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l no-bom -d 'csv, tsv: no byte-order mark, though the profile\'s bom is true'
complete -c leadctl -n '__leadctl_within "leadctl search"' -l no-sanitize -d 'csv, tsv: don\'t neutralize cells a spreadsheet would run as formulas'
complete -c leadctl -n '__leadctl_within "leadctl search"' -s o -l output -r -F -d 'write to <file> (- is stdout); with no format option its extension picks one (.csv .tsv .json .ndjson .jsonl)'
# leadctl config
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a set -d 'store a value; with no value, api-key is read from stdin or a hidden prompt'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a get -d 'print a stored value (api-key masked unless --reveal)'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a unset -d 'remove a stored value'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a list -d 'print the profile\'s stored values as key=value (api-key masked unless --reveal)'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a profiles -d 'list the stored profiles; * marks the one this run uses'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a remove-profile -d 'remove a stored profile and everything in it (asks first on a terminal)'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a path -d 'print the path of the config file'
complete -c leadctl -n '__leadctl_argument_at "leadctl config" 0' -a help -d 'show help for a command'
# leadctl config set
complete -c leadctl -n '__leadctl_argument_at "leadctl config set" 0' -a 'api-key base-url format timeout retries max-wait plan bom'
# leadctl config get
complete -c leadctl -n '__leadctl_argument_at "leadctl config get" 0' -a 'api-key base-url format timeout retries max-wait plan bom'
complete -c leadctl -n '__leadctl_within "leadctl config get"' -l reveal -d 'print the api-key in full'
# leadctl config unset
# leadctl config list
complete -c leadctl -n '__leadctl_within "leadctl config list"' -l reveal -d 'print the api-key in full'
complete -c leadctl -n '__leadctl_within "leadctl config list"' -l json -d 'print one JSON object'
# leadctl config profiles
complete -c leadctl -n '__leadctl_within "leadctl config profiles"' -l json -d 'print a JSON array of {name, current}'
# leadctl config remove-profile
complete -c leadctl -n '__leadctl_argument_at "leadctl config remove-profile" 0' -a '(__leadctl_profiles)'
complete -c leadctl -n '__leadctl_within "leadctl config remove-profile"' -s y -l yes -d 'do not ask (needed when standard input is not a terminal)'
# leadctl config path
# leadctl config help
complete -c leadctl -n '__leadctl_argument_at "leadctl config help" 0' -a 'set get unset list profiles remove-profile path'
# leadctl completion
complete -c leadctl -n '__leadctl_argument_at "leadctl completion" 0' -a 'bash zsh fish'
# leadctl sandbox
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l port -x -d 'port to listen on; 0 picks a free one'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l host -x -d 'address to listen on'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l plan -x -a 'free pro agency' -d 'plan of the key printed as LEADCTL_API_KEY'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l variant -x -a 'a b' -d 'which of the spec\'s plan tables applies'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l leads -x -d 'saved leads to start with (default: 300)'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l history -x -d 'past searches to start with (default: 40)'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l latency -x -d 'time each answer takes, in milliseconds (the sandbox works within it)'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l fail-rate -x -d 'share of requests answered 500, 0..1'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l reset-rate -x -d 'share of connections dropped without an answer, 0..1'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l seed -x -d 'seed of the generated data (default: 1)'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l daily-limit -x -d 'requests a day per key, instead of the plan\'s'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l live-search-limit -x -d 'live searches a month, instead of the plan\'s'
complete -c leadctl -n '__leadctl_within "leadctl sandbox"' -l hostile-data -d 'names with formulas, escape sequences and newlines, to test what you build on it'
# leadctl auth
complete -c leadctl -n '__leadctl_argument_at "leadctl auth" 0' -a login -d 'store a base URL and API key in the profile, after one request checks them; asks on a terminal'
complete -c leadctl -n '__leadctl_argument_at "leadctl auth" 0' -a logout -d 'remove the profile\'s stored API key (the base URL and other settings stay)'
complete -c leadctl -n '__leadctl_argument_at "leadctl auth" 0' -a status -d 'profile, base URL, where the key comes from (masked), and one request to check it'
complete -c leadctl -n '__leadctl_argument_at "leadctl auth" 0' -a help -d 'show help for a command'
# leadctl auth login
complete -c leadctl -n '__leadctl_within "leadctl auth login"' -l with-token -d 'read the API key from standard input (for scripts)'
# leadctl auth logout
# leadctl auth status
# leadctl auth help
complete -c leadctl -n '__leadctl_argument_at "leadctl auth help" 0' -a 'login logout status'
# leadctl sync
complete -c leadctl -n '__leadctl_within "leadctl sync"' -l db -r -F -d 'the database file (default: $XDG_DATA_HOME/leadctl/leads.db)'
# leadctl usage
complete -c leadctl -n '__leadctl_within "leadctl usage"' -l json -d 'one JSON object on stdout, for scripts'
# leadctl api
complete -c leadctl -n '__leadctl_within "leadctl api"' -s X -l method -x -d 'the HTTP method (default: GET, or POST when fields are given)'
complete -c leadctl -n '__leadctl_within "leadctl api"' -s F -l field -x -d 'a field; true, false, null and integers are sent as JSON values (repeatable)'
complete -c leadctl -n '__leadctl_within "leadctl api"' -s f -l raw-field -x -d 'a field sent as a string, whatever it looks like (repeatable)'
complete -c leadctl -n '__leadctl_within "leadctl api"' -l paginate -d 'GET every page of a paged list and print its items as one JSON array'
# leadctl mcp
complete -c leadctl -n '__leadctl_within "leadctl mcp"' -l max-requests -x -d 'most API requests this session may send, retries included (default: 50)'
complete -c leadctl -n '__leadctl_within "leadctl mcp"' -l max-searches -x -d 'most searches this session may send (default: 10)'
complete -c leadctl -n '__leadctl_within "leadctl mcp"' -l max-searches-per-day -x -d 'most searches per UTC day for the profile and server, across sessions, counted in the usage ledger (default: 50)'
complete -c leadctl -n '__leadctl_within "leadctl mcp"' -l read-only -d 'serve no search_businesses: the session cannot spend live searches'
complete -c leadctl -n '__leadctl_within "leadctl mcp"' -l tools -x -d 'serve only these tools: search_businesses, find_saved_leads, list_leads, list_search_history, usage'
# leadctl help
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a environment -d 'environment variables, their flags and config keys, and which wins'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a exit-codes -d 'what each exit code means'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a leads -d 'the account\'s saved leads, newest first'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a history -d 'the account\'s past searches, newest first'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a search -d 'run a new lead search: businesses by keyword and location'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a config -d 'read and change stored settings (per profile, in config.json)'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a completion -d 'print a shell completion script (bash, zsh or fish)'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a sandbox -d 'serve a local Lead Data API with realistic data, for trying scripts without spending quota'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a auth -d 'log in (store a checked base URL and key), log out, or check which ones a run uses'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a sync -d 'mirror saved leads and search history into a SQLite database (incremental; needs Node 22.13+)'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a usage -d 'requests and searches sent from this machine today and this month, beside the plan'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a api -d 'send a request to {base url}/api/v1/<path> with the key, retries and rate-limit waits; print the body as sent'
complete -c leadctl -n '__leadctl_argument_at "leadctl help" 0' -a mcp -d 'serve the API to AI assistants: a Model Context Protocol server on stdin/stdout'
# leadctl help environment
# leadctl help exit-codes
# leadctl help leads
# leadctl help history
# leadctl help search
# leadctl help config
# leadctl help completion
# leadctl help sandbox
# leadctl help auth
# leadctl help sync
# leadctl help usage
# leadctl help api
# leadctl help mcp
