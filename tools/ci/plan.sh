#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix and its compare mode to
# $GITHUB_OUTPUT (matrix=..., compare=baseline|paired).
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
set -euo pipefail
cd "$(dirname "$0")/../.."
node tools/bin/tailgate.js plan --matrix "${1:?matrix name}" --github-output
