#!/usr/bin/env bash
# Always-run cleanup: every kind cluster a tailgate run may have left behind.
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
command -v kind >/dev/null || exit 0
kind get clusters 2>/dev/null | grep '^tailgate-' | while read -r c; do kind delete cluster --name "$c"; done
exit 0
