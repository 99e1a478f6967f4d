#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix and its compare mode to
# $GITHUB_OUTPUT (matrix=..., compare=baseline|paired).
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
set -euo pipefail
cd "$(dirname "$0")/../.."
json=$(node tools/bin/tailgate.js plan --matrix "${1:?matrix name}" --json)
compare=$(node -e 'import("./tools/src/config/load.js").then(m => console.log(m.loadBench("bench.yaml").matrices[process.argv[1]].compare))' "$1")
{ echo "matrix=$json"; echo "compare=$compare"; } >> "${GITHUB_OUTPUT:-/dev/stdout}"
