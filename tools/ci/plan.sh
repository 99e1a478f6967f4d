#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix and its compare mode to
# $GITHUB_OUTPUT (matrix=..., compare=baseline|paired).
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
# Env: [BASE_REF] the PR's base commit: its matrix's cells are planned too (the plan of record).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(plan --matrix "${1:?matrix name}" --github-output)
[ -z "${BASE_REF:-}" ] || args+=(--base-ref "$BASE_REF")
tailgate "${args[@]}"
