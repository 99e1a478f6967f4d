#!/usr/bin/env bash
# A run on main joins the history: one record per cell appended to the history branch
# (append-only and regular files only: tailgate history check), change points
# detected, the page and its gnuplot charts rebuilt, the job summary written, the branch
# pushed. Only for trusted events on the default branch (the workflow says when).
# Env: RESULTS (run folder), COMMIT, [RUN_URL], [HISTORY_BRANCH=tailgate-history],
#      [REPO_URL], [PAGES_URL], [OUT=history-out],
#      [HISTORY_VERIFIED_FILE] a file outside the workspace that keeps the tip this job
#      last verified and pushed (nightly.yml restores and saves it as a cache; a
#      self-hosted runner may keep it on disk): the branch must descend from it.
#      Output: changes=<file> (history detect --out), worse=true|false.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
branch=${HISTORY_BRANCH:-tailgate-history}
out=$(mkdir -p "${OUT:-history-out}" && cd "${OUT:-history-out}" && pwd)
tree=$out/branch
history_worktree "$branch" "$tree"
# The branch's rules (regular files only, append-only) are tailgate's (history check):
# before the append, so nothing is written through a link and nothing built on a past
# some commit rewrote (every commit since the last verified point, or since the first),
# and after it, so no line of the store was removed or rewritten. A refusal is an
# annotation naming the commits, files and records.
verified=${HISTORY_VERIFIED_FILE:-}
since=""
if [ -n "$verified" ] && [ -s "$verified" ]; then
  since=$(head -c 40 "$verified")
else
  echo "history: no verified point kept${verified:+ in $verified} (a first night, or it expired): the branch is read from its first commit"
fi
branch_rules() {
  local said code=0
  said=$(tailgate history check --worktree "$tree" ${since:+--since "$since"} 2>&1) || code=$?
  [ "$code" -eq 0 ] || { gh_error "$said"; exit "$code"; }
  echo "$said"
}
branch_rules
tailgate history append --results "${RESULTS:?}" --commit "${COMMIT:?}" --store "$tree/history" ${RUN_URL:+--run-url "$RUN_URL"}
branch_rules
worse=false
tailgate history detect --store "$tree/history" --out "$out/changes.json" --force || {
  code=$?
  [ "$code" -eq 1 ] || exit "$code"
  worse=true
}
tailgate history report --store "$tree/history" --site "$tree/site" --png ${REPO_URL:+--repo-url "$REPO_URL"} ${PAGES_URL:+--pages-url "$PAGES_URL"}
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$tree/site/summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
git -C "$tree" add history site
git -C "$tree" -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit -q -m "tailgate history: ${COMMIT:0:12}" -m "${RUN_URL:-}"
git -C "$tree" push -q origin "HEAD:refs/heads/$branch"
# The new verified point, for the next night (nightly.yml keeps it): written whole or not at all.
if [ -n "$verified" ]; then
  mkdir -p "$(dirname "$verified")"
  git -C "$tree" rev-parse HEAD > "$verified.tmp" && mv "$verified.tmp" "$verified"
fi
echo "history: appended ${COMMIT:0:12} to $branch (change points for the worse: $worse)"
step_output "changes=$out/changes.json"
step_output "worse=$worse"
