#!/usr/bin/env bash
# Runs a command with TMPDIR set to a fresh folder of its own and removes that folder
# afterwards, whatever the command's outcome (its exit code is kept). Tests create
# scratch folders with mkdtemp(tmpdir()); this way none is left behind.
set -uo pipefail
dir=$(mktemp -d "${TMPDIR:-/tmp}/tailgate-test.XXXXXX") || exit 4
cleanup() { rm -rf -- "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
TMPDIR=$dir "$@"
