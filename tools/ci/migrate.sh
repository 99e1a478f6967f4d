#!/usr/bin/env bash
# A migration verdict (tailgate migrate) as a workflow step: the matrix's cells of FROM
# with TO beside it, in one kind cluster. Exit 0 no worse, 1 worse, 3 more pairs needed.
# Env: MATRIX FROM TO [DUET=true] [REPETITIONS] [MARGIN] [OUT] [CONFIG]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
args=(migrate --matrix "$MATRIX" --from "$FROM" --to "$TO" --out "${OUT:-results}")
[ "${DUET:-false}" = true ] && args+=(--duet)
[ -n "${REPETITIONS:-}" ] && args+=(--repetitions "$REPETITIONS")
[ -n "${MARGIN:-}" ] && args+=(--margin "$MARGIN")
tailgate "${args[@]}"
