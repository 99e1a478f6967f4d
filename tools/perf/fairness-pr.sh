#!/usr/bin/env bash
# Issue 60's kind case as gate.yml runs it (duet-cell.sh, then gate.sh): a PR whose base is
# one folder of tools/perf/kind-fairness and whose head is another (they differ only in the
# controller's resources), in a scratch repository of two commits.
#   tools/perf/fairness-pr.sh <base folder> <head folder> [ALTERNATE=true: the reference run]
set -uo pipefail
TG=$(cd "$(dirname "$0")/../.." && pwd)
base_dir=$TG/tools/perf/kind-fairness/${1:?base folder}
head_dir=$TG/tools/perf/kind-fairness/${2:?head folder}
cd "$TG" && source tools/scripts/kind-env.sh >/dev/null 2>&1; cd - >/dev/null
[ -z "${KIND_SKIP:-}" ] || { echo "fairness-pr: $KIND_SKIP" >&2; exit 4; }
repo=$(mktemp -d "/tmp/tg-fairness-$1-to-$2.XXXXXX"); cd "$repo"
git init -q -b main; git config user.email ci@example.com; git config user.name ci
cp "$base_dir"/* .; git add -A; git commit -qm "base: $1"; base=$(git rev-parse HEAD)
cp "$head_dir"/* .; git commit -qam "PR: $1 → $2"
git worktree add -q "../$(basename "$repo")-base" "$base"
export BASE_DIR=$repo/../$(basename "$repo")-base MATRIX=pr CONTROLLER=traefik TUNING=default SCENARIO=steady OUT=results
started=$(date +%s)
"$TG/tools/ci/duet-cell.sh"; echo "duet-cell exit $?"
MODE=concurrent RESULTS=results BASE_REF=$base OUT=gate-out MATRIX=pr "$TG/tools/ci/gate.sh"; echo "gate exit $?"
echo "wall: $(( $(date +%s) - started )) s"
echo "--- comment (first screen)"; head -30 gate-out/comment/comment.md
echo "repo: $repo"
