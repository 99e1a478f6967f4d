#!/usr/bin/env bash
# A PR's cell as a duet on one runner: the controller as the PR's base commit configures
# it (checkout in $BASE_DIR) and as the head does, two releases in one kind cluster in
# front of the same backend pods, k6 alternating requests between them; each repetition
# is one pair. Where the PR changes something that cannot run side by side (a scenario,
# the matrix, a controller's routing, tailgate itself), the cell falls back to
# interleaved pairs (paired-cell.sh) and says why in one line.
# Env: BASE_DIR, MATRIX CONTROLLER TUNING SCENARIO [REPETITIONS] [OUT] [CONFIG]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
base_dir=$(cd "${BASE_DIR:?checkout of the base commit}" && pwd)
out=$(mkdir -p "${OUT:-results}" && cd "${OUT:-results}" && pwd)
base_config=$base_dir/$TAILGATE_CONFIG
why=interleaved:' the base commit has no bench config'
[ -f "$base_config" ] && why=$(tailgate plan --matrix "$MATRIX" --duet-base "$base_config" --duet-check)
# tailgate's own PRs: the base checkout is tailgate; a change to its code runs with its own.
if [ "$why" = duet ] && [ -x "$base_dir/tools/ci/bench-cell.sh" ] &&
  ! diff -rq "$base_dir/tools/src" "$TG_HOME/tools/src" >/dev/null 2>&1; then
  why="interleaved: tailgate's own code changes in this PR"
fi
if [ "$why" != duet ]; then
  line="tailgate: ${why#interleaved: } — base and head run as interleaved pairs, not as a duet"
  gh_notice "$line"
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && echo "$line" >> "$GITHUB_STEP_SUMMARY"
  exec "$(dirname "$0")/paired-cell.sh"
fi
args=(run --matrix "$MATRIX" --controllers "$CONTROLLER" --tunings "$TUNING" --scenarios "$SCENARIO"
  --duet-base "$base_config" --out "$out/duet" --no-confirm)
[ -n "${REPETITIONS:-}" ] && args+=(--repetitions "$REPETITIONS")
code=0
tailgate "${args[@]}" || code=$?
# The gate job compares <results>/base with <results>/head, paired by repetition — also
# after a refusal, whose cell-error.json files tell the gate (and the PR) why.
for side in base head; do
  mkdir -p "$out/$side"
  for run in "$out"/duet/*/; do
    [ -d "$run$side" ] && mv "$run$side" "$out/$side/duet-$(basename "$run")"
  done
done
# The duet's own verdict (1 regression, 3 inconclusive) is the gate job's to give; any
# other failure fails this job too.
case $code in 0 | 1 | 3) ;; *) exit "$code" ;; esac
