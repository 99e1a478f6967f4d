#!/usr/bin/env bash
# Paired mode on one runner: the base configuration (a checkout of the PR's base in
# $BASE_DIR) and the head run one repetition at a time, interleaved A B A B, so that
# the runner's drift hits both alike. Env: BASE_DIR, REPETITIONS, plus bench-cell.sh's.
set -euo pipefail
head_dir="$(cd "$(dirname "$0")/../.." && pwd)"
base_dir=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd)
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
reps=${REPETITIONS:-3}
(cd "$base_dir" && tools/scripts/setup.sh >/dev/null)
for i in $(seq 1 "$reps"); do
  echo "== paired repetition $i/$reps: base"
  (cd "$base_dir" && OUT="$out/base" REPETITIONS=1 tools/ci/bench-cell.sh)
  echo "== paired repetition $i/$reps: head"
  (cd "$head_dir" && OUT="$out/head" REPETITIONS=1 tools/ci/bench-cell.sh)
done
