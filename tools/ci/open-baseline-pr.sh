#!/usr/bin/env bash
# Records baselines from a run and opens a pull request with them (never pushes
# to main), citing the change points in main's history that made the old ones stale.
# Which token pushes the branch and opens the PR decides whether GitHub starts the
# repository's workflows for it — and so whether its required checks can arrive: a GitHub
# App's (APP_ID and APP_PRIVATE_KEY: minted by app-token.js) or PR_TOKEN (a fine-grained
# token) do; the workflow's own (GH_TOKEN) does not, which the PR and the job summary say.
# Env: RESULTS, GH_TOKEN, RUN_URL, [PR_TOKEN], [APP_ID], [APP_PRIVATE_KEY], [REPO_URL],
#      [HISTORY_BRANCH=tailgate-history]; GitHub's GITHUB_RUN_ID, GITHUB_REPOSITORY,
#      GITHUB_WORKFLOW and GITHUB_WORKFLOW_REF (the caller's workflow, named in the PR).
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
if [ -n "${APP_ID:-}" ] || [ -n "${APP_PRIVATE_KEY:-}" ]; then
  token=$(node "$TG_HOME/tools/ci/app-token.js") || { gh_error "baseline PR: no token from the GitHub App ${APP_ID:-?} (above)"; exit 4; }
  how="a token of the GitHub App ${APP_ID}"
elif [ -n "${PR_TOKEN:-}" ]; then
  token=$PR_TOKEN how="the token passed as baseline-pr-token"
else
  token=${GH_TOKEN:?GH_TOKEN} how="the workflow's own token"
fi
echo "::add-mask::$token"
# The caller's workflow (an adopter's tailgate-dispatch.yml): its name and file.
workflow=${GITHUB_WORKFLOW:-the dispatch workflow}
file=${GITHUB_WORKFLOW_REF:-}; file=${file#*/*/}; file=${file%@*}
git checkout -b "$branch"
git add baselines/
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" commit -m "tailgate: update baselines from run ${GITHUB_RUN_ID}" -m "$(cat baseline-change.txt)"
# Pushed with the same token that opens the PR: the checkout's header (the workflow's
# token) is reset for this one command (an empty value empties git's list of them).
auth=$(printf 'x-access-token:%s' "$token" | base64 | tr -d '\n')
echo "::add-mask::$auth"
header="http.${GITHUB_SERVER_URL:-https://github.com}/.extraheader"
git -c "$header=" -c "$header=AUTHORIZATION: basic $auth" push origin "$branch"
if [ "$how" = "the workflow's own token" ]; then
  checks="Opened with the workflow's own token: GitHub starts no workflow for this PR, so its required checks do not arrive by themselves. Close and reopen it (GitHub starts them for your event), or give the dispatch a token that starts them — baseline-pr-token, or a GitHub App (tailgate's docs/adopting.md, \"Baselines\")."
  summary_line "tailgate: the baseline PR was opened with the workflow's own token — its required checks arrive only once a maintainer closes and reopens it (docs/adopting.md, Baselines)"
else
  checks="Opened with ${how}: GitHub runs this repository's PR workflows on it, so its required checks arrive."
fi
cat > baseline-pr.md <<BODY
Recorded by the workflow **${workflow}**${file:+ (\`${file}\`)}: ${RUN_URL:-}. Review the change of the key numbers below like code.

\`\`\`
$(cat baseline-change.txt)
\`\`\`

$(cat change-points.md)

${checks}
BODY
GH_TOKEN=$token node "$TG_HOME/tools/ci/open-pr.js" "${GITHUB_REF_NAME:-main}" "$branch" "tailgate: update baselines (run ${GITHUB_RUN_ID})" baseline-pr.md
