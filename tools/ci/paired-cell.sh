#!/usr/bin/env bash
# Paired mode on one runner: base ($BASE_DIR, the PR's base checkout, run by its own tailgate
# when it is one) and head, one repetition at a time in `tailgate plan --pair-order`'s order.
# Env: BASE_DIR, REPETITIONS, [FIRST_PAIR] (a confirmation round), plus bench-cell.sh's.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
head=$PWD base=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd) out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
[ -f "$base/$TAILGATE_CONFIG" ] || { summary_line "tailgate: the base commit has no $TAILGATE_CONFIG — the head runs alone, nothing to compare with"; OUT="$out/head" exec "$TG_HOME/tools/ci/bench-cell.sh"; }
base_cell=$TG_HOME/tools/ci/bench-cell.sh
[ ! -x "$base/tools/ci/bench-cell.sh" ] || { base_cell=$base/tools/ci/bench-cell.sh; (cd "$base" && tools/scripts/setup.sh bench >/dev/null); }
tailgate plan --pair-order --repetitions "${REPETITIONS:-3}" --first-pair "${FIRST_PAIR:-1}" | while read -r side pair; do
  if [ "$side" = base ]; then dir=$base cell=$base_cell; else dir=$head cell=$TG_HOME/tools/ci/bench-cell.sh; fi
  echo "== paired repetition $pair: $side" && (cd "$dir" && TAILGATE_PAIR="$pair" OUT="$out/$side" REPETITIONS=1 "$cell" </dev/null)
done
