# Sourced by tools/ci/*.sh. Two folders: TG_HOME holds tailgate's code (this checkout,
# or the copy a reusable workflow checked out into .tailgate); the project is the
# working directory (an adopter's repository: bench.yaml, values files, baselines/,
# results/). In tailgate's own repository both are the same folder.
TG_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TAILGATE_CONFIG=${CONFIG:-${TAILGATE_CONFIG:-bench.yaml}}
export PATH="$TG_HOME/.tools/bin:$PATH"
tailgate() { node "$TG_HOME/tools/bin/tailgate.js" "$@"; }
