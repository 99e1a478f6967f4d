# Sourced by tools/ci/*.sh. Two folders: TG_HOME holds tailgate's code (this checkout,
# or the copy a reusable workflow checked out into .tailgate); the project is the
# working directory (an adopter's repository: bench.yaml, values files, baselines/,
# results/). In tailgate's own repository both are the same folder.
TG_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TAILGATE_CONFIG=${CONFIG:-${TAILGATE_CONFIG:-bench.yaml}}
export PATH="$TG_HOME/.tools/bin:$PATH"
tailgate() { node "$TG_HOME/tools/bin/tailgate.js" "$@"; }
# shellcheck source=gh.sh
source "$TG_HOME/tools/ci/gh.sh"
# A step output "name=value": appended to $GITHUB_OUTPUT on GitHub, printed elsewhere (a
# laptop, a test whose stdout is a pipe, where appending to /dev/stdout fails). A value
# with a line break is refused (it would add outputs of its own). Fails when it cannot
# be written.
step_output() {
  case "$1" in *$'\n'* | *$'\r'*) gh_error "step output ${1%%=*}: a line break in its value"; return 2 ;; esac
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; else echo "$1"; fi
}
# The history branch (tailgate history: one JSON line per cell and run, append-only) as a
# worktree in $2, from origin's branch $1 or, the first time, a new orphan branch.
history_worktree() {
  local branch=$1 dir=$2
  [[ "$branch" =~ ^[A-Za-z0-9._/-]+$ ]] || { gh_error "history branch '$branch': letters, digits, . _ / - only"; return 2; }
  rm -rf "$dir"
  git worktree prune
  if git fetch -q origin "refs/heads/$branch" 2>/dev/null; then
    git worktree add -q --detach "$dir" FETCH_HEAD
  else
    echo "history branch $branch not on origin yet: starting it"
    git worktree add -q --detach "$dir" HEAD
    git -C "$dir" checkout -q --orphan "tailgate-history-new"
    git -C "$dir" rm -rq --cached . && find "$dir" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  fi
}
