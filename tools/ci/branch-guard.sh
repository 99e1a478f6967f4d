#!/usr/bin/env bash
# Whose bench.yaml a nightly or manual run is (nightly.yml, dispatch.yml: the bench job's
# first step), decided from the event alone:
# - a `schedule` run is the default branch's: GitHub runs schedules there only, and its
#   payload names no repository, so github.event.repository.default_branch is empty;
# - a `workflow_dispatch` (or `push`) run is the default branch's when its ref is
#   refs/heads/<the payload's default_branch>;
# - nothing else is (another branch, a tag, any other event).
# Only a run of the default branch records history. A run of anything else on a
# self-hosted runner is refused before anything is set up there — its bench.yaml names the
# charts, images and values the machine would run, and anyone with write access can
# dispatch a branch — unless the caller opts in (ALLOW_OTHER_BRANCHES=true). GitHub-hosted
# runners are fresh machines: any branch runs there.
# Env: EVENT_NAME, REF, [DEFAULT_BRANCH] (github.event.repository.default_branch),
#      [RUNNER_ENVIRONMENT] (the runner's own: github-hosted | self-hosted; unset is taken
#      as self-hosted), [ALLOW_OTHER_BRANCHES=false].
# Output: default-branch=true|false. Exit 2: refused.
set -euo pipefail
# shellcheck source=gh.sh
source "$(dirname "$0")/gh.sh"
event=${EVENT_NAME:?EVENT_NAME (github.event_name)}
ref=${REF:?REF (github.ref)}
default=${DEFAULT_BRANCH:-}
case "$event" in
  schedule) mine=true ;;
  workflow_dispatch | push) [ -n "$default" ] && [ "$ref" = "refs/heads/$default" ] && mine=true || mine=false ;;
  *) mine=false ;;
esac
out() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; else echo "$1"; fi; }
line() {
  gh_notice "$1"
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || echo "$1" >> "$GITHUB_STEP_SUMMARY"
}
if [ "$event" = schedule ]; then
  line "tailgate: a schedule run, which GitHub starts on the default branch only: its history is recorded where the caller keeps one"
  out default-branch=true
  exit 0
elif [ "$mine" = true ]; then
  line "tailgate: a ${event} run of the default branch ($default): its history is recorded where the caller keeps one"
  out default-branch=true
  exit 0
fi
where="${RUNNER_ENVIRONMENT:-self-hosted}"
if [ "$where" != github-hosted ] && [ "${ALLOW_OTHER_BRANCHES:-false}" != true ]; then
  gh_error "tailgate: refused — this ${event} run is of ${ref}, not the default branch${default:+ ($default)}, and this runner is ${where}: that branch's bench.yaml (its charts, images and values) would run on your machine. Run it on the default branch, or let the caller pass allow-other-branches: true (docs/adopting.md, self-hosted runners)"
  exit 2
fi
line "tailgate: a ${event} run of ${ref}, not the default branch${default:+ ($default)}: results only, no history"
out default-branch=false
