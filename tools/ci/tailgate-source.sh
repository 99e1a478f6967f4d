#!/usr/bin/env bash
# Which tailgate a job of the reusable workflows runs, checked once its code is checked
# out into .tailgate: the workflow's own source (GitHub's job.workflow_repository and
# job.workflow_sha: the repository and commit the caller's `uses:` resolved to), so the
# `uses:` line is the one pin. The caller's tailgate-ref / tailgate-repository inputs are
# an override for runners that do not name that source; where the runner does, an override
# naming another commit or repository is refused — the workflow and the scripts it runs
# would be two versions of tailgate.
# Env: [WORKFLOW_REPOSITORY] [WORKFLOW_SHA] (job.workflow_*; empty where the runner gives
#      none), [TAILGATE_REPOSITORY] [TAILGATE_REF] (the caller's override; empty: none),
#      [SOURCE_DIR] (the checkout; default: the one this script is in).
# Exit 2: refused.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=gh.sh
source "$here/gh.sh"
dir=${SOURCE_DIR:-$here/../..}
sha=$(git -C "$dir" rev-parse HEAD 2>/dev/null) || { gh_error "tailgate source: $dir is no git checkout of tailgate"; exit 2; }
# owner/name of the checkout's origin (actions/checkout sets it), lower case as GitHub compares.
origin=$(git -C "$dir" remote get-url origin 2>/dev/null || true)
repo=$(sed -E 's#^.*github\.com[:/]##; s#\.git$##; s#/$##' <<< "$origin" | tr '[:upper:]' '[:lower:]')
lower() { tr '[:upper:]' '[:lower:]' <<< "$1"; }
want_sha=${WORKFLOW_SHA:-}
want_repo=$(lower "${WORKFLOW_REPOSITORY:-}")
override="${TAILGATE_REPOSITORY:+tailgate-repository ${TAILGATE_REPOSITORY}}${TAILGATE_REPOSITORY:+${TAILGATE_REF:+, }}${TAILGATE_REF:+tailgate-ref ${TAILGATE_REF}}"
if [ -n "$want_sha" ]; then
  if [ "$sha" != "$want_sha" ] || { [ -n "${TAILGATE_REPOSITORY:-}" ] && [ -n "$want_repo" ] && [ "$(lower "$TAILGATE_REPOSITORY")" != "$want_repo" ]; }; then
    gh_error "tailgate source: refused — the caller's ${override:-override} checked out ${repo:-?}@${sha}, but this workflow is ${want_repo:-?}@${want_sha} (what its uses: line resolved to). The scripts must be the workflow's own commit: drop tailgate-ref and tailgate-repository from the call (the workflow's own source is used), or make them name that commit"
    exit 2
  fi
  agrees=""
  [ -z "$override" ] || agrees=" (the call also names it: $override)"
  gh_notice "tailgate ${want_repo:-$repo}@${sha}: this workflow's own commit${agrees}"
else
  # act, or a runner older than job.workflow_*: the override, or the triggering commit of
  # the caller's own repository (a workflow of tailgate's own, called as ./.github/…).
  gh_notice "tailgate ${repo:-this repository}@${sha}: ${override:-the triggering commit} (this runner does not name the workflow's own commit, job.workflow_sha: not checked against it)"
fi
