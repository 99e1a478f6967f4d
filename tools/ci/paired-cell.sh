#!/usr/bin/env bash
# Paired mode on one runner: the base configuration (a checkout of the PR's base in
# $BASE_DIR) and the head run one repetition at a time, interleaved A B, B A, A B…, so
# that the runner's drift hits both alike and cancels over the pairs. Each run records
# its pair (TAILGATE_PAIR; a base checkout too old to know it is matched by run order).
# Env: BASE_DIR, REPETITIONS, [FIRST_PAIR] (confirmation rounds continue the numbering),
#      plus bench-cell.sh's.
set -euo pipefail
head_dir="$(cd "$(dirname "$0")/../.." && pwd)"
base_dir=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd)
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
reps=${REPETITIONS:-3}
first=${FIRST_PAIR:-1}
(cd "$base_dir" && tools/scripts/setup.sh bench >/dev/null)
side() { # base|head pair
  local dir=$head_dir
  [ "$1" = base ] && dir=$base_dir
  echo "== paired repetition $2: $1"
  (cd "$dir" && TAILGATE_PAIR="$2" OUT="$out/$1" REPETITIONS=1 tools/ci/bench-cell.sh)
}
for i in $(seq 0 $((reps - 1))); do
  pair=$((first + i))
  if ((i % 2 == 0)); then side base "$pair"; side head "$pair"; else side head "$pair"; side base "$pair"; fi
done
