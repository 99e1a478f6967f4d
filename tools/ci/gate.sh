#!/usr/bin/env bash
# The PR gate: compare every downloaded cell against baselines read from the base
# commit (or paired base/head), render the comment and charts, write the comment
# artifact, append the job summary, and exit with the verdict's exit code.
# Env: RESULTS (folder of results), BASE_REF (commit), [MODE=baseline|paired],
#      [BASE_RESULTS] (paired; default RESULTS/base with RESULTS/head), [RUN_URL], [OUT=gate-out]
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gate-out}
mkdir -p "$out/comment" "$out/charts"
if [ "${MODE:-baseline}" = paired ]; then
  # paired-cell.sh writes <results>/base and <results>/head unless told otherwise.
  base=${BASE_RESULTS:-$RESULTS/base}
  [ -n "${BASE_RESULTS:-}" ] || RESULTS=$RESULTS/head
  node tools/bin/tailgate.js compare --paired --base-results "$base" --head-results "${RESULTS:?}" --out "$out/verdict.json"
else
  node tools/bin/tailgate.js compare --results "${RESULTS:?}" --base-ref "${BASE_REF:?}" --out "$out/verdict.json"
fi
code=$?
if [ ! -f "$out/verdict.json" ]; then
  echo "::error::tailgate compare wrote no verdict (exit $code): bad input or infrastructure error"
  exit "$code"
fi
node tools/bin/tailgate.js report "$out/verdict.json" --markdown "$out/comment/comment.md" --charts "$out/charts" ${RUN_URL:+--run-url "$RUN_URL"} >/dev/null
node -e 'const v=require(require("path").resolve(process.argv[1]));process.stdout.write(JSON.stringify({kind:"tailgate.comment",schemaVersion:1,overall:v.overall,exitCode:v.exitCode}))' "$out/verdict.json" > "$out/comment/meta.json"
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$out/comment/comment.md" >> "$GITHUB_STEP_SUMMARY"
exit "$code"
