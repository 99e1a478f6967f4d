#!/usr/bin/env bash
# The inputs of a manual or scheduled run (dispatch.yml, nightly.yml) arrive as
# environment variables and are checked here again (the form's own checks are not a
# security boundary, and a caller of a reusable workflow can pass anything). The ranges
# are the CLI's own (tailgate plan checks --rate/--duration/--repetitions as run does);
# the shell only keeps names to their character set and the choices to their lists.
# Env: MATRIX (or TARGET local|kind: the matrix local|nightly), [CONTROLLERS] [TUNINGS]
#      [SCENARIOS] (comma lists; empty: the matrix's), [RATE] [REPETITIONS] (empty or 0:
#      the matrix's), [DURATION] (empty: the matrix's), [COMPARE=none] baseline|paired|none,
#      [CONFIG].
# Outputs: the checked values, which later steps take instead of the inputs — matrix,
#      controllers, tunings, scenarios, rate, duration, repetitions (empty = the
#      matrix's), kube=true|false (the matrix has cells on kind or a cluster).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
fail() { gh_error "$*"; exit 2; }
matrix=${MATRIX:-}
if [ -z "$matrix" ]; then
  case "${TARGET:?MATRIX or TARGET}" in local) matrix=local ;; kind) matrix=nightly ;; *) fail "target must be local or kind, got '$TARGET'" ;; esac
fi
[[ "$matrix" =~ ^[a-z0-9][a-z0-9-]*$ ]] || fail "matrix must be a matrix name from bench.yaml, got '$matrix'"
case "${COMPARE:-none}" in baseline|paired|none) ;; *) fail "compare must be baseline, paired or none, got '$COMPARE'" ;; esac
for v in CONTROLLERS TUNINGS SCENARIOS; do
  [[ -z "${!v:-}" || "${!v}" =~ ^[a-z0-9.,-]+$ ]] || fail "${v,,} must be comma-separated names from bench.yaml, got '${!v}'"
done
# 0 (a number input's default) and empty both mean "as bench.yaml says".
rate=${RATE:-}; [ "$rate" = 0 ] && rate=
repetitions=${REPETITIONS:-}; [ "$repetitions" = 0 ] && repetitions=
duration=${DURATION:-}
args=(plan --matrix "$matrix")
for pair in CONTROLLERS:controllers TUNINGS:tunings SCENARIOS:scenarios; do
  var=${pair%%:*}
  [ -z "${!var:-}" ] || args+=("--${pair#*:}" "${!var}")
done
[ -z "$rate" ] || args+=(--rate "$rate")
[ -z "$duration" ] || args+=(--duration "$duration")
[ -z "$repetitions" ] || args+=(--repetitions "$repetitions")
plan=$(tailgate "${args[@]}") || fail "inputs refused (see the message above)"
# plan's lines: "  1  <target>  <cell>"; kind and cluster targets need kind/helm/kubectl.
kube=false
grep -Eq '^ *[0-9]+  (kind|cluster)  ' <<<"$plan" && kube=true
step_output "matrix=$matrix"
step_output "controllers=${CONTROLLERS:-}"
step_output "tunings=${TUNINGS:-}"
step_output "scenarios=${SCENARIOS:-}"
step_output "rate=$rate"
step_output "duration=$duration"
step_output "repetitions=$repetitions"
step_output "kube=$kube"
