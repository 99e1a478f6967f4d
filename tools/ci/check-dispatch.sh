#!/usr/bin/env bash
# workflow_dispatch inputs arrive as environment variables and are checked here
# again (the form's own checks are not a security boundary): numbers in range,
# names against bench.yaml (tailgate plan refuses unknown ones).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "::error::$*"; exit 2; }
int_in() { [[ "$2" =~ ^[0-9]+$ ]] && (( $2 >= $3 && $2 <= $4 )) || fail "$1 must be an integer from $3 to $4, got '$2'"; }
int_in rate "${RATE:?}" 1 20000
int_in repetitions "${REPETITIONS:?}" 1 20
[[ "${DURATION:?}" =~ ^[0-9]+(s|m)$ ]] || fail "duration must look like 30s or 2m, got '$DURATION'"
case "${TARGET:?}" in local|kind) ;; *) fail "target must be local or kind, got '$TARGET'" ;; esac
case "${COMPARE:?}" in baseline|paired|none) ;; *) fail "compare must be baseline, paired or none" ;; esac
for v in CONTROLLERS TUNINGS SCENARIOS; do
  [[ "${!v}" =~ ^[a-z0-9.,-]+$ ]] || fail "${v,,} must be comma-separated names from bench.yaml, got '${!v}'"
done
matrix=local; [ "$TARGET" = kind ] && matrix=nightly
node tools/bin/tailgate.js plan --matrix "$matrix" --controllers "$CONTROLLERS" --tunings "$TUNINGS" --scenarios "$SCENARIOS" >/dev/null
echo "matrix=$matrix" >> "${GITHUB_OUTPUT:-/dev/stdout}"
