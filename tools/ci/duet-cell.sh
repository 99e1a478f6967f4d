#!/usr/bin/env bash
# A PR's cell as a duet: base and head as two releases in one kind cluster, or interleaved
# pairs (paired-cell.sh) where `tailgate plan --pairing` says why not. ALTERNATE: the two
# releases loaded one at a time (a cross-talk confirmation, pairs numbered from FIRST_PAIR).
# Env: BASE_DIR, MATRIX CONTROLLER TUNING SCENARIO [REPETITIONS] [OUT] [CONFIG] [ALTERNATE FIRST_PAIR]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
how=$(tailgate plan --matrix "$MATRIX" --pairing --base-dir "${BASE_DIR:?checkout of the base commit}")
[ "${how%%:*}" != interleaved ] || summary_line "tailgate: ${how#interleaved: } — base and head run as interleaved pairs, not as a duet"
[ "$how" = duet ] || exec "$(dirname "$0")/paired-cell.sh"
alt=(); [ "${ALTERNATE:-false}" != true ] || alt=(--alternate --pair "${FIRST_PAIR:-1}")
# Exit 1 (regression) and 3 (inconclusive) are the gate job's to give, with every cell.
tailgate run --matrix "$MATRIX" --controllers "$CONTROLLER" --tunings "$TUNING" --scenarios "$SCENARIO" "${alt[@]}" --duet-base "$BASE_DIR/$TAILGATE_CONFIG" \
  --out "${OUT:-results}/duet" --sides-out "${OUT:-results}" --no-confirm ${REPETITIONS:+--repetitions "$REPETITIONS"} || { c=$?; [[ $c =~ ^[13]$ ]] || exit $c; }
