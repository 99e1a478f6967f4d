#!/usr/bin/env bash
# make test-kind: the kind e2e on this machine, fully offline (../shared/offline-kind).
# Skips with one clear line when the offline images are not built here.
# TEST_KIND_ONLY='<regex>' runs only the e2e tests whose names match.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Beside the checkout (../shared), or where this workplace keeps it.
OK=${OFFLINE_KIND_DIR:-$PWD/../shared/offline-kind}
[ -x "$OK/kind" ] || OK=/work/shared/offline-kind
# shellcheck source=pin.sh
source tools/scripts/pin.sh
NODE_IMAGE=offline-kind/node:$(pin kubernetes)
K6_IMAGE=localhost/tailgate-k6:$(pin k6)
need=("$NODE_IMAGE" "localhost/traefik:$(pin traefik)" "localhost/haproxy-ingress:$(pin haproxy-ingress)")
if [ ! -x "$OK/kind" ] || ! command -v docker >/dev/null; then
  echo "test-kind: SKIPPED — no offline-kind at $OK or no docker (see README: kind target)"; exit 0
fi
# The wrapper starts dockerd and the egress guard; where it cannot (no iptables, no
# daemon), there are no offline images to use either: skip, saying why.
if ! (source "$OK/env.sh") >/tmp/tailgate-test-kind-env.log 2>&1; then
  echo "test-kind: SKIPPED — offline-kind could not start dockerd and its egress guard here ($(tail -1 /tmp/tailgate-test-kind-env.log))"; exit 0
fi
# shellcheck source=/dev/null
source "$OK/env.sh"   # kind wrapper + egress guard + dockerd
for img in "${need[@]}"; do
  docker image inspect "$img" >/dev/null 2>&1 || { echo "test-kind: SKIPPED — image $img not built (run: $OK/build.sh --with traefik --with haproxy-ingress)"; exit 0; }
done
tools/scripts/build-backend-image.sh
tools/scripts/build-envoy-gateway-image.sh   # the controller only: Envoy cannot be built here
TAILGATE_K6_IMAGE=$K6_IMAGE IMAGE=$K6_IMAGE tools/scripts/build-k6-image.sh
export TAILGATE_K6_IMAGE=$K6_IMAGE
export TAILGATE_OFFLINE=1 TAILGATE_KIND_NODE_IMAGE=$NODE_IMAGE
node --test --test-reporter=spec ${TEST_KIND_ONLY:+--test-name-pattern="$TEST_KIND_ONLY"} tools/test/e2e/
