#!/usr/bin/env bash
# Writes the GitHub Actions matrix of a bench.yaml matrix, its compare mode and the gate's
# name to $GITHUB_OUTPUT (matrix=..., compare=baseline|paired, gate=...), refusing a name
# another gate.yml call of the caller's workflow has too.
# Usage: tools/ci/plan.sh <matrix>          (laptop: prints it)
# Env: [BASE_REF] the PR's base commit: its matrix's cells are planned too (the plan of record).
#      [TG_GATE_NAME] gate.yml's `name` input; [WORKFLOW_REF] the caller's github.workflow_ref.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(plan --matrix "${1:?matrix name}" --github-output)
[ -z "${BASE_REF:-}" ] || args+=(--base-ref "$BASE_REF")
[ -z "${TG_GATE_NAME:-}" ] || args+=(--gate-name "$TG_GATE_NAME")
[ -z "${WORKFLOW_REF:-}" ] || args+=(--workflow "$WORKFLOW_REF")
tailgate "${args[@]}"
