#!/usr/bin/env bash
# Writes the gate's name to $GITHUB_OUTPUT (gate=...): gate.yml's name input, else the
# matrix for the default bench.yaml, else <config path>.<matrix> — refused (exit 2) when
# another gate.yml call of any workflow of the repository has it too (a check run and a
# comment are the commit's, whatever workflow runs the gate). Its own step before plan.sh,
# so that a bench.yaml plan refuses still leaves the name its comment is published under.
# Usage: tools/ci/gate-name.sh <matrix>     (laptop: prints it)
# Env: [CONFIG], [TG_GATE_NAME] gate.yml's name input, [WORKFLOW_REF] github.workflow_ref.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(plan --gate --matrix "${1:?matrix name}" --github-output)
[ -z "${TG_GATE_NAME:-}" ] || args+=(--gate-name "$TG_GATE_NAME")
[ -z "${WORKFLOW_REF:-}" ] || args+=(--workflow "$WORKFLOW_REF")
tailgate "${args[@]}"
