#!/usr/bin/env bash
# make test's first step: the layout is Prettier's (.prettierrc.json), the rest ESLint's
# (eslint.config.js). `tools/scripts/lint.sh --fix` rewrites instead of checking.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=node_modules/.bin
files=("tools/**/*.js" "k6/**/*.js" "eslint.config.js")
if [ "${1:-}" = --fix ]; then
  "$bin/prettier" --log-level warn --write "${files[@]}"
  "$bin/eslint" --fix .
else
  "$bin/prettier" --log-level warn --check "${files[@]}" || { echo "lint: run tools/scripts/lint.sh --fix" >&2; exit 1; }
  "$bin/eslint" .
fi
echo "lint: prettier and eslint clean"
