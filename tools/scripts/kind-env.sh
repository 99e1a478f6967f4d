#!/usr/bin/env bash
# Sourced by make test-kind and make perf: puts the offline kind wrapper, its egress
# guard and dockerd in place and exports what tailgate needs to use the locally built
# images. Sets KIND_SKIP to one line saying why where that cannot be done here.
# shellcheck source=pin.sh
source tools/scripts/pin.sh
KIND_SKIP=
# Beside the checkout, or wherever OFFLINE_KIND_DIR says.
OK=${OFFLINE_KIND_DIR:-$PWD/../shared/offline-kind}
NODE_IMAGE=offline-kind/node:$(pin kubernetes)
K6_IMAGE=localhost/tailgate-k6:$(pin k6)
need=("$NODE_IMAGE" "localhost/traefik:$(pin traefik)" "localhost/haproxy-ingress:$(pin haproxy-ingress)")
OK_LOCK=${OFFLINE_KIND_HOME:-/var/cache/offline-kind}/.build.lock
if [ ! -x "$OK/kind" ] || ! command -v docker >/dev/null; then
  KIND_SKIP="no offline-kind at $OK or no docker (see docs/targets.md, kind)"
# A build in progress replaces images and runs its own containers: tests on a half-built
# set would fail for reasons of their own, so they wait for the next run.
elif [ -e "$OK_LOCK" ] && ! flock -n "$OK_LOCK" true 2>/dev/null; then
  KIND_SKIP="an offline-kind build is running ($OK_LOCK is held): its images are not final yet"
# The wrapper starts dockerd and the egress guard; where it cannot (no iptables, no
# daemon), there are no offline images to use either. TMPDIR=/tmp: a dockerd started
# here keeps the TMPDIR it was started with for life and puts the console socket of
# every --tty container (each kind node) in it; make's TMPDIR is removed when its test
# run ends, and every kind node after that would fail with "stat <dir>: no such file".
elif ! (export TMPDIR=/tmp; source "$OK/env.sh") >/tmp/tailgate-kind-env.log 2>&1; then
  KIND_SKIP="offline-kind could not start dockerd and its egress guard here ($(tail -1 /tmp/tailgate-kind-env.log))"
else
  # shellcheck source=/dev/null
  source "$OK/env.sh"
  for img in "${need[@]}"; do
    docker image inspect "$img" >/dev/null 2>&1 || { KIND_SKIP="image $img not built (run: $OK/build.sh --with traefik --with haproxy-ingress)"; break; }
  done
fi
if [ -z "$KIND_SKIP" ]; then
  tools/scripts/build-backend-image.sh
  # The in-cluster load image of each engine this machine has (docs/engines.md): k6's only
  # where its release binary was installed, Vegeta's always.
  if [ -x .tools/bin/k6 ]; then
    IMAGE=$K6_IMAGE tools/scripts/build-engine-image.sh k6
    export TAILGATE_K6_IMAGE=$K6_IMAGE
  fi
  VEGETA_IMAGE=localhost/tailgate-vegeta:$(pin vegeta)
  IMAGE=$VEGETA_IMAGE tools/scripts/build-engine-image.sh vegeta
  export TAILGATE_VEGETA_IMAGE=$VEGETA_IMAGE
  export TAILGATE_OFFLINE=1 TAILGATE_KIND_NODE_IMAGE=$NODE_IMAGE
fi
