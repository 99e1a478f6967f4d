#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix and its compare mode to
# $GITHUB_OUTPUT (matrix=..., compare=baseline|paired).
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
tailgate plan --matrix "${1:?matrix name}" --github-output
