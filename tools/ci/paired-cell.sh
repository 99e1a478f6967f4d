#!/usr/bin/env bash
# Paired mode on one runner: the base configuration (a checkout of the PR's base in
# $BASE_DIR) and the head run one repetition at a time, interleaved A B, B A, A B…, so
# that the runner's drift hits both alike and cancels over the pairs. Each run records
# its pair (TAILGATE_PAIR; a base checkout too old to know it is matched by run order).
# The base runs with its own tailgate when the base checkout is tailgate itself (this
# repository's PRs change tailgate); an adopter's base holds only its configuration and
# runs with the head's tailgate.
# Env: BASE_DIR, REPETITIONS, [FIRST_PAIR] (confirmation rounds continue the numbering),
#      plus bench-cell.sh's.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
head_dir=$PWD
base_dir=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd)
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
reps=${REPETITIONS:-3}
first=${FIRST_PAIR:-1}
# The PR that adds tailgate: its base has no bench config, so there is nothing to pair
# with. The head runs alone and the gate says there is no base to compare with.
if [ ! -f "$base_dir/$TAILGATE_CONFIG" ]; then
  line="tailgate: the base commit has no $TAILGATE_CONFIG — the head runs alone, nothing to compare with"
  gh_notice "$line"
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && echo "$line" >> "$GITHUB_STEP_SUMMARY"
  OUT="$out/head" exec "$TG_HOME/tools/ci/bench-cell.sh"
fi
base_cell=$TG_HOME/tools/ci/bench-cell.sh
if [ -x "$base_dir/tools/ci/bench-cell.sh" ]; then
  base_cell=$base_dir/tools/ci/bench-cell.sh
  (cd "$base_dir" && tools/scripts/setup.sh bench >/dev/null)
fi
side() { # base|head pair
  local dir=$head_dir cell=$TG_HOME/tools/ci/bench-cell.sh
  [ "$1" = base ] && dir=$base_dir cell=$base_cell
  echo "== paired repetition $2: $1"
  (cd "$dir" && TAILGATE_PAIR="$2" OUT="$out/$1" REPETITIONS=1 "$cell")
}
for i in $(seq 0 $((reps - 1))); do
  pair=$((first + i))
  if ((i % 2 == 0)); then side base "$pair"; side head "$pair"; else side head "$pair"; side base "$pair"; fi
done
