#!/usr/bin/env bash
# A PR's cell as a duet on one runner: base and head as two releases in one kind cluster
# (tools/src/plan/pairing.js decides; where it cannot, paired-cell.sh, saying why).
# Env: BASE_DIR, MATRIX CONTROLLER TUNING SCENARIO [REPETITIONS] [OUT] [CONFIG] [ALTERNATE FIRST_PAIR]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
how=$(tailgate plan --matrix "$MATRIX" --pairing --base-dir "${BASE_DIR:?checkout of the base commit}")
if [ "$how" != duet ]; then
  [ "${how%%:*}" = alone ] || summary_line "tailgate: ${how#interleaved: } — base and head run as interleaved pairs, not as a duet"
  exec "$(dirname "$0")/paired-cell.sh"
fi
# ALTERNATE (a cross-talk confirmation): the same two releases, loaded one at a time.
alt=(); [ "${ALTERNATE:-false}" != true ] || alt=(--alternate --pair "${FIRST_PAIR:-1}")
code=0
tailgate run --matrix "$MATRIX" --controllers "$CONTROLLER" --tunings "$TUNING" --scenarios "$SCENARIO" "${alt[@]}" \
  --duet-base "$BASE_DIR/$TAILGATE_CONFIG" --out "$out/duet" --no-confirm ${REPETITIONS:+--repetitions "$REPETITIONS"} || code=$?
# The gate compares <results>/base with <results>/head, also after a refusal (cell-error.json).
for run in "$out"/duet/*/; do for side in base head; do
  mkdir -p "$out/$side"; [ ! -d "$run$side" ] || mv "$run$side" "$out/$side/duet-$(basename "$run")"
done; done
# 1 regression, 3 inconclusive: the gate job's to give; anything else fails this job.
case $code in 0 | 1 | 3) ;; *) exit "$code" ;; esac
