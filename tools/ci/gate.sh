#!/usr/bin/env bash
# The PR gate: `tailgate gate` (tools/src/cli/gate.js: compare, report, the comment
# artifact, the job summary, the confirmation matrix, fail-closed exit) with the
# workflow's environment as its flags.
# Env: RESULTS, BASE_REF, [MODE=baseline|paired|concurrent], [BASE_RESULTS], [RUN_URL],
#      [OUT=gate-out], [CONFIRM_RESULTS], [MATRIX], [TG_GATE_NAME] (the gate's name: plan's gate output)
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(gate --results "${RESULTS:?}" --mode "${MODE:-baseline}" --out "${OUT:-gate-out}")
for pair in BASE_REF:base-ref BASE_RESULTS:base-results CONFIRM_RESULTS:confirm-results MATRIX:matrix TG_GATE_NAME:gate RUN_URL:run-url; do
  var=${pair%%:*}
  [ -z "${!var:-}" ] || args+=("--${pair#*:}" "${!var}")
done
tailgate "${args[@]}"
