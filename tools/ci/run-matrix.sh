#!/usr/bin/env bash
# A whole matrix (or the part of it a manual run names), as dispatch.yml and nightly.yml
# run it: `tailgate run`, gated against the committed baselines of the matrix's profile
# as run gates (no baselines yet: exit 0, saying how to record them), or results only
# with GATE=false. Values as check-dispatch.sh checked them; empty ones are the matrix's.
# Env: MATRIX, OUT, [CONTROLLERS] [TUNINGS] [SCENARIOS] [RATE] [DURATION] [REPETITIONS]
#      [GATE=true] [CONFIG]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(run --matrix "${MATRIX:?}" --out "${OUT:?}")
for pair in CONTROLLERS:controllers TUNINGS:tunings SCENARIOS:scenarios RATE:rate DURATION:duration REPETITIONS:repetitions; do
  var=${pair%%:*}
  [ -z "${!var:-}" ] || args+=("--${pair#*:}" "${!var}")
done
[ "${GATE:-true}" = true ] || args+=(--no-gate)
tailgate "${args[@]}"
