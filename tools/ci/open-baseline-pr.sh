#!/usr/bin/env bash
# Records baselines from a run and opens a pull request with them (never pushes
# to main). Env: RESULTS, GH_TOKEN, RUN_URL
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
branch="tailgate/baselines-${GITHUB_RUN_ID:?}"
tailgate baseline update --results "${RESULTS:?}" --force | tee baseline-change.txt
git checkout -b "$branch"
git add baselines/
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" commit -m "tailgate: update baselines from run ${GITHUB_RUN_ID}" -m "$(cat baseline-change.txt)"
git push origin "$branch"
gh pr create --base "${GITHUB_REF_NAME:-main}" --head "$branch" --title "tailgate: update baselines (run ${GITHUB_RUN_ID})" \
  --body "Recorded by bench-dispatch: ${RUN_URL:-}. Review the change of the key numbers below like code.

\`\`\`
$(cat baseline-change.txt)
\`\`\`"
