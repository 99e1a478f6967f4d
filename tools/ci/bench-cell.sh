#!/usr/bin/env bash
# One cell of a matrix (all its repetitions), as the bench workflows run it: results
# only, the verdict is the gate step's (tailgate gate), with every cell's results.
# Env: MATRIX CONTROLLER TUNING SCENARIO [REPETITIONS] [RATE] [DURATION] [OUT] [CONFIG]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(run --matrix "$MATRIX" --controllers "$CONTROLLER" --tunings "$TUNING" --scenarios "$SCENARIO" --out "${OUT:-results}" --no-gate)
[ -n "${REPETITIONS:-}" ] && args+=(--repetitions "$REPETITIONS")
[ -n "${RATE:-}" ] && args+=(--rate "$RATE")
[ -n "${DURATION:-}" ] && args+=(--duration "$DURATION")
tailgate "${args[@]}"
