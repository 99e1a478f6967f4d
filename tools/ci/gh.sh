# shellcheck shell=bash
# Sourced by tools/ci/*.sh (lib.sh sources it).
# Values in workflow commands (::error::, ::notice::) go through gh_escape: GitHub reads
# %25 %0D %0A back, and a raw line break would start a command of its own (the same
# encoding as tools/src/github-output.js).
# The runner writes a command's message to the log decoded: a '::' or '##[' in it is
# broken with a zero-width space first (github-output.js neutralizeCommands does the same).
gh_escape() {
  local zw=$'\xe2\x80\x8b' s=$1
  s=${s//::/:$zw:}
  s=${s//'##['/##$zw[}
  s=${s//%/%25}
  s=${s//$'\r'/%0D}
  printf '%s' "${s//$'\n'/%0A}"
}
gh_error() { echo "::error::$(gh_escape "$*")"; }
gh_notice() { echo "::notice::$(gh_escape "$*")"; }
# A line for the log (as a notice) and the job summary.
summary_line() {
  gh_notice "$1"
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || echo "$1" >> "$GITHUB_STEP_SUMMARY"
}
