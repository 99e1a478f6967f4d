# Sourced by tools/ci/*.sh. Two folders: TG_HOME holds tailgate's code (this checkout,
# or the copy a reusable workflow checked out into .tailgate); the project is the
# working directory (an adopter's repository: bench.yaml, values files, baselines/,
# results/). In tailgate's own repository both are the same folder.
TG_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TAILGATE_CONFIG=${CONFIG:-${TAILGATE_CONFIG:-bench.yaml}}
export PATH="$TG_HOME/.tools/bin:$PATH"
tailgate() { node "$TG_HOME/tools/bin/tailgate.js" "$@"; }
# A step output: appended to $GITHUB_OUTPUT on GitHub, printed elsewhere (a laptop, a
# test whose stdout is a pipe, where appending to /dev/stdout fails). Fails when it cannot
# be written.
step_output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; else echo "$1"; fi
}
