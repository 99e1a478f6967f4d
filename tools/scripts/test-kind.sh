#!/usr/bin/env bash
# make test-kind: the kind e2e on this machine, fully offline (locally built images).
# Skips with one clear line when the offline images are not built here.
# TEST_KIND_ONLY='<regex>' runs only the e2e tests whose names match.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=kind-env.sh
source tools/scripts/kind-env.sh
if [ -n "$KIND_SKIP" ]; then echo "test-kind: SKIPPED — $KIND_SKIP"; exit 0; fi
# One at a time on a machine: two would share its two cores and its host ports.
# (/tmp, not TMPDIR: make gives every test run a TMPDIR of its own.)
exec 9>/tmp/tailgate-test-kind.lock
flock -n 9 || { echo "test-kind: another make test-kind is running on this machine; wait for it"; exit 1; }
tools/scripts/build-envoy-gateway-image.sh   # the controller only: Envoy cannot be built here
node --test --test-reporter=spec ${TEST_KIND_ONLY:+--test-name-pattern="$TEST_KIND_ONLY"} tools/test/e2e/
