#!/usr/bin/env bash
# Records baselines from a run and opens a pull request with them (never pushes
# to main), citing the change points in main's history that made the old ones stale.
# Env: RESULTS, GH_TOKEN, RUN_URL, [REPO_URL], [HISTORY_BRANCH=tailgate-history]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
branch="tailgate/baselines-${GITHUB_RUN_ID:?}"
tailgate baseline update --results "${RESULTS:?}" --force | tee baseline-change.txt
# Why now: the change points in main's history (the history branch, where there is one).
echo "No history of main to cite (no ${HISTORY_BRANCH:-tailgate-history} branch)." > change-points.md
if git ls-remote --exit-code --heads origin "${HISTORY_BRANCH:-tailgate-history}" >/dev/null 2>&1; then
  history_worktree "${HISTORY_BRANCH:-tailgate-history}" .tailgate-history
  tailgate history detect --store .tailgate-history/history --markdown change-points.md --force \
    ${REPO_URL:+--repo-url "$REPO_URL"} >/dev/null || [ $? -eq 1 ]
  git worktree remove --force .tailgate-history
fi
git checkout -b "$branch"
git add baselines/
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" commit -m "tailgate: update baselines from run ${GITHUB_RUN_ID}" -m "$(cat baseline-change.txt)"
git push origin "$branch"
gh pr create --base "${GITHUB_REF_NAME:-main}" --head "$branch" --title "tailgate: update baselines (run ${GITHUB_RUN_ID})" \
  --body "Recorded by bench-dispatch: ${RUN_URL:-}. Review the change of the key numbers below like code.

\`\`\`
$(cat baseline-change.txt)
\`\`\`

$(cat change-points.md)"
