#!/usr/bin/env bash
# The composite action's one entry point (action.yml): TG_COMMAND picks the step; every
# step is a script that runs the same on a laptop. Inputs arrive as environment
# variables only, and names are kept to their character set before any use.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=gh.sh
source "$here/gh.sh"
fail() { gh_error "tailgate action: $*"; exit 2; }
for v in MATRIX TG_GATE_NAME CONTROLLER TUNING SCENARIO FROM; do
  [[ -z "${!v:-}" || "${!v}" =~ ^[a-z0-9][a-z0-9.,-]*$ ]] || fail "${v,,} must be names from bench.yaml, got '${!v}'"
done
# The job's clock for "seconds before the first request" (tailgate run's timing line).
[ -n "${GITHUB_ENV:-}" ] && [ -z "${TAILGATE_JOB_STARTED:-}" ] && echo "TAILGATE_JOB_STARTED=$(date +%s)" >> "$GITHUB_ENV"
case "${TG_COMMAND:?}" in
  source) "$here/tailgate-source.sh" ;;                      # this checkout is the workflow's own commit
  setup) make -C "$here/../.." setup-bench ;;                 # OS packages, pinned k6, npm (run-time only)
  kube-tools) "$here/install-kube-tools.sh" ;;                # pinned kind and helm
  report-tools) "$here/../scripts/setup.sh" report ;;         # gnuplot, npm (run-time only)
  gate-name) "$here/gate-name.sh" "${MATRIX:?}" ;;               # the gate's name, refused if another call has it
  plan) "$here/plan.sh" "${MATRIX:?}" ;;
  cell)
    if [ "${CONCURRENT:-false}" = true ]; then "$here/duet-cell.sh"
    elif [ "${PAIRED:-false}" = true ]; then "$here/paired-cell.sh"
    else "$here/bench-cell.sh"; fi ;;
  gate) "$here/gate.sh" ;;
  migrate)
    [[ "${TO:-}" =~ ^[a-z0-9][a-z0-9.-]*(:[a-z0-9][a-z0-9.-]*)?$ ]] || fail "to must be <controller>[:<tuning>] from bench.yaml, got '${TO:-}'"
    [[ -z "${MARGIN:-}" || "$MARGIN" =~ ^[a-z0-9.=%,]+$ ]] || fail "margin must look like p99=10%,errors=10%, got '$MARGIN'"
    "$here/migrate.sh" ;;
  teardown) "$here/teardown.sh" ;;
  *) fail "command must be source, setup, kube-tools, report-tools, gate-name, plan, cell, gate, migrate or teardown, got '$TG_COMMAND'" ;;
esac
