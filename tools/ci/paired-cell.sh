#!/usr/bin/env bash
# Paired mode on one runner: base (a checkout of the PR's base in $BASE_DIR) and head, one
# repetition at a time in the order `tailgate plan --pair-order` gives (A B, B A, …). The
# base runs with its own tailgate when its checkout is tailgate; an adopter's base holds
# only its configuration. No bench config in the base: the head runs alone.
# Env: BASE_DIR, REPETITIONS, [FIRST_PAIR] (a confirmation round), plus bench-cell.sh's.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
head_dir=$PWD base_dir=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd)
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
if [ ! -f "$base_dir/$TAILGATE_CONFIG" ]; then
  summary_line "tailgate: the base commit has no $TAILGATE_CONFIG — the head runs alone, nothing to compare with"
  OUT="$out/head" exec "$TG_HOME/tools/ci/bench-cell.sh"
fi
base_cell=$TG_HOME/tools/ci/bench-cell.sh
[ ! -x "$base_dir/tools/ci/bench-cell.sh" ] || { base_cell=$base_dir/tools/ci/bench-cell.sh; (cd "$base_dir" && tools/scripts/setup.sh bench >/dev/null); }
tailgate plan --pair-order --repetitions "${REPETITIONS:-3}" --first-pair "${FIRST_PAIR:-1}" | while read -r side pair; do
  echo "== paired repetition $pair: $side"
  if [ "$side" = base ]; then dir=$base_dir cell=$base_cell; else dir=$head_dir cell=$TG_HOME/tools/ci/bench-cell.sh; fi
  (cd "$dir" && TAILGATE_PAIR="$pair" OUT="$out/$side" REPETITIONS=1 "$cell" </dev/null)
done
