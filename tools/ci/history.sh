#!/usr/bin/env bash
# A run on main joins the history: one record per cell appended to the history branch
# (append-only: a change that removes or rewrites a line is refused), change points
# detected, the page and its gnuplot charts rebuilt, the job summary written, the branch
# pushed. Only for trusted events on the default branch (the workflow says when).
# Env: RESULTS (run folder), COMMIT, [RUN_URL], [HISTORY_BRANCH=tailgate-history],
#      [REPO_URL], [PAGES_URL], [OUT=history-out]. Output: changes=<file> (history detect
#      --out), worse=true|false.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
branch=${HISTORY_BRANCH:-tailgate-history}
out=$(mkdir -p "${OUT:-history-out}" && cd "${OUT:-history-out}" && pwd)
tree=$out/branch
history_worktree "$branch" "$tree"
# Regular files only: a link committed to the branch would send the append or the page
# outside the worktree (tailgate refuses to write through one; this names every one).
links=$( (git -C "$tree" ls-files -s -- history site | awk '$1 == "120000" {print $4}'; find "$tree/history" "$tree/site" -type l -printf "%P\n" 2>/dev/null || true) | sort -u | head -5 | tr '\n' ' ')
[ -z "$links" ] || { gh_error "history: symbolic links in $branch: $links— the history holds regular files only"; exit 2; }
tailgate history append --results "${RESULTS:?}" --commit "${COMMIT:?}" --store "$tree/history" ${RUN_URL:+--run-url "$RUN_URL"}
# Append-only: every tracked file only grows (a rewritten history is not history).
if git -C "$tree" rev-parse -q --verify HEAD >/dev/null; then
  removed=$(git -C "$tree" diff --numstat HEAD -- history | awk '$2 != 0 {print $3}')
  [ -z "$removed" ] || { gh_error "history: lines removed or changed in $removed — the history is append-only"; exit 2; }
fi
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
echo "history: appended ${COMMIT:0:12} to $branch (change points for the worse: $worse)"
step_output "changes=$out/changes.json"
step_output "worse=$worse"
