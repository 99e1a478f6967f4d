#!/usr/bin/env bash
# pin <name>: a version from tools/versions.json (the one place pins live).
# Sourced by the set-up and CI scripts; node is there wherever tailgate runs.
pin() {
  node -e 'const v=require(process.argv[1])[process.argv[2]];if(!v){console.error("no pin "+process.argv[2]+" in tools/versions.json");process.exit(2)}process.stdout.write(v)' "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/versions.json" "$1"
}
