#!/usr/bin/env bash
# make test-kind: the kind e2e on this machine, fully offline (locally built images).
# Skips with one clear line when the offline images are not built here.
# TEST_KIND_ONLY='<regex>' runs only the e2e tests whose names match.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=kind-env.sh
source tools/scripts/kind-env.sh
if [ -n "$KIND_SKIP" ]; then echo "test-kind: SKIPPED — $KIND_SKIP"; exit 0; fi
tools/scripts/build-envoy-gateway-image.sh   # the controller only: Envoy cannot be built here
node --test --test-reporter=spec ${TEST_KIND_ONLY:+--test-name-pattern="$TEST_KIND_ONLY"} tools/test/e2e/
