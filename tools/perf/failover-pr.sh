#!/usr/bin/env bash
# Issue 66's real PRs as gate.yml runs them (duet-cell.sh, then gate.sh): init's
# `pr-failover` gate as it ships, in a scratch repository of two commits whose head changes
# one thing in the controller's values.
#   tools/perf/failover-pr.sh <traefik|haproxy-ingress> <none|throttle-4s|update-3s>
# none: a no-op PR (a comment line). throttle-4s: Traefik applies provider changes every
# 4 s, not 2 s. update-3s: haproxy-ingress applies endpoint changes every 3 s, not 2 s.
set -uo pipefail
TG=$(cd "$(dirname "$0")/../.." && pwd)
controller=${1:?controller}; change=${2:?change}
cd "$TG" && source tools/scripts/kind-env.sh >/dev/null 2>&1; cd - >/dev/null
[ -z "${KIND_SKIP:-}" ] || { echo "failover-pr: $KIND_SKIP" >&2; exit 4; }
repo=$(mktemp -d "/tmp/tg-failover-$controller-$change.XXXXXX"); cd "$repo"
git init -q -b main; git config user.email ci@example.com; git config user.name ci
node "$TG/tools/bin/tailgate.js" init --controller "$controller" >/dev/null || exit 4
values=$controller-values.yaml
git add -A; git commit -qm "base: init --controller $controller"; base=$(git rev-parse HEAD)
node "$TG/tools/perf/values-edit.js" "$values" "$change" || exit 4
git commit -qam "PR: $change"
git worktree add -q "../$(basename "$repo")-base" "$base"
export BASE_DIR=$repo/../$(basename "$repo")-base MATRIX=pr-failover CONTROLLER=$controller TUNING=default SCENARIO=pod-kill OUT=results
started=$(date +%s)
"$TG/tools/ci/duet-cell.sh"; echo "duet-cell exit $?"
MODE=concurrent RESULTS=results BASE_REF=$base OUT=gate-out MATRIX=pr-failover "$TG/tools/ci/gate.sh"; echo "gate exit $?"
echo "wall: $(( $(date +%s) - started )) s"
echo "--- comment (first screen)"; head -40 gate-out/comment/comment.md
echo "repo: $repo"
