#!/usr/bin/env bash
# The PR gate: compare every downloaded cell against baselines read from the base
# commit (or paired base/head), render the comment and charts, write the comment
# artifact, append the job summary, and exit with the verdict's exit code.
# Env: RESULTS (folder of results), BASE_REF (commit), [MODE=baseline|paired|concurrent],
#      [BASE_RESULTS] (paired; default RESULTS/base with RESULTS/head), [RUN_URL], [OUT=gate-out],
#      [CONFIRM_RESULTS] (the confirmation round's results, laid out like RESULTS),
#      [MATRIX] (whose gate applies; default the top-level gate)
# Confirm-on-fail: when the verdict lists cells whose change is suspicious but not yet
# certain and no confirmation round was given, this writes them as a GitHub matrix
# (`confirm=` in $GITHUB_OUTPUT, or stdout) for a round with fresh runs, and exits 0:
# the verdict of record is the one after that round.
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
out=${OUT:-gate-out}
mkdir -p "$out/comment" "$out/charts"
# A duet (concurrent) leaves base/ and head/ the same way: gated as paired runs.
if [ "${MODE:-baseline}" = paired ] || [ "${MODE:-}" = concurrent ]; then
  # paired-cell.sh writes <results>/base and <results>/head unless told otherwise.
  base=${BASE_RESULTS:-$RESULTS/base}
  [ -n "${BASE_RESULTS:-}" ] || RESULTS=$RESULTS/head
  confirm=()
  [ -n "${CONFIRM_RESULTS:-}" ] && confirm=(--confirm-base-results "$CONFIRM_RESULTS/base" --confirm-head-results "$CONFIRM_RESULTS/head")
  # The gate's rules come from the base commit when there is one (a PR cannot loosen them).
  tailgate compare ${MATRIX:+--matrix "$MATRIX"} ${BASE_REF:+--gate-ref "$BASE_REF"} --paired --base-results "$base" --head-results "${RESULTS:?}" "${confirm[@]}" --out "$out/verdict.json" --force
else
  confirm=()
  [ -n "${CONFIRM_RESULTS:-}" ] && confirm=(--confirm-results "$CONFIRM_RESULTS")
  tailgate compare ${MATRIX:+--matrix "$MATRIX"} --results "${RESULTS:?}" --base-ref "${BASE_REF:?}" "${confirm[@]}" --out "$out/verdict.json" --force
fi
code=$?
if [ ! -f "$out/verdict.json" ]; then
  gh_error "tailgate compare wrote no verdict (exit $code): bad input or infrastructure error"
  [ "$code" -ne 0 ] || code=4
  exit "$code"
fi
# After the verdict nothing may turn it green: a step that fails keeps the verdict's
# exit code, or makes a passing one an infrastructure error (4). Never 0.
closed() {
  gh_error "$1 — the gate fails closed (verdict exit $code$([ "$code" -ne 0 ] || echo ', reported as 4'))"
  [ "$code" -ne 0 ] && exit "$code"
  exit 4
}
# report exits with the verdict's own code when it worked (2 or 4 when it did not).
tailgate report "$out/verdict.json" --markdown "$out/comment/comment.md" --charts "$out/charts" ${RUN_URL:+--run-url "$RUN_URL"} \
  --meta "$out/comment/meta.json" --confirm-matrix "$out/confirm.json" --force >/dev/null
rc=$?
[ "$rc" -eq "$code" ] || closed "tailgate report failed after the verdict (exit $rc)"
[ -s "$out/comment/comment.md" ] || closed "tailgate report wrote no comment"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$out/comment/comment.md" >> "$GITHUB_STEP_SUMMARY" || closed "could not append the job summary"
fi
# Cells to confirm, as a matrix of the bench-cell workflow ([] when none or already confirmed).
matrix='{"include":[]}'
if [ -z "${CONFIRM_RESULTS:-}" ]; then
  [ -s "$out/confirm.json" ] || closed "tailgate report wrote no confirmation matrix"
  node -e 'const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (!Array.isArray(m.include)) process.exit(1)' \
    "$out/confirm.json" 2>/dev/null || closed "the confirmation matrix is not {\"include\": [...]}"
  matrix=$(cat "$out/confirm.json")
fi
step_output "confirm=$matrix" || closed "could not write the step output"
if [ "$matrix" != '{"include":[]}' ]; then
  gh_notice "a confirmation round with fresh runs is needed before the verdict: $matrix"
  exit 0
fi
exit "$code"
