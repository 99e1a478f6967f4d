#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix to $GITHUB_OUTPUT (matrix=...).
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
set -euo pipefail
cd "$(dirname "$0")/../.."
json=$(node tools/bin/tailgate.js plan --matrix "${1:?matrix name}" --json)
echo "matrix=$json" >> "${GITHUB_OUTPUT:-/dev/stdout}"
