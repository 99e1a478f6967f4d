#!/usr/bin/env bash
# Always-run cleanup: what this job's tailgate runs left (kind clusters, processes,
# network namespaces) — never a cluster that a tailgate run still alive on this machine
# created: on a self-hosted runner a concurrent job's cluster is not this job's to delete
# (executing the workflows found a teardown deleting every tailgate-* cluster mid-run).
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
tailgate doctor --clean
exit 0
