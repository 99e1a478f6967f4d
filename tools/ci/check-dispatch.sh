#!/usr/bin/env bash
# workflow_dispatch inputs arrive as environment variables and are checked here
# again (the form's own checks are not a security boundary). The ranges are the CLI's
# own (tailgate plan checks --rate/--duration/--repetitions as run does); the shell only
# keeps names to their character set and the choices to their lists.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
fail() { gh_error "$*"; exit 2; }
case "${TARGET:?}" in local|kind) ;; *) fail "target must be local or kind, got '$TARGET'" ;; esac
case "${COMPARE:?}" in baseline|paired|none) ;; *) fail "compare must be baseline, paired or none" ;; esac
for v in CONTROLLERS TUNINGS SCENARIOS; do
  [[ "${!v}" =~ ^[a-z0-9.,-]+$ ]] || fail "${v,,} must be comma-separated names from bench.yaml, got '${!v}'"
done
matrix=local; [ "$TARGET" = kind ] && matrix=nightly
tailgate plan --matrix "$matrix" --controllers "$CONTROLLERS" --tunings "$TUNINGS" --scenarios "$SCENARIOS" \
  --rate "${RATE:?}" --duration "${DURATION:?}" --repetitions "${REPETITIONS:?}" >/dev/null || fail "inputs refused (see the message above)"
step_output "matrix=$matrix"
