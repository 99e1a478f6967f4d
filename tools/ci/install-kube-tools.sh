#!/usr/bin/env bash
# Pinned kind and helm into .tools/bin (Go module proxy), for the kind target.
# A runner that cannot pull images (an air-gapped self-hosted runner, make
# test-workflows) names its offline kind in OFFLINE_KIND_DIR: its wrapper is the kind
# used, never a plain kind that would pull node images and leave the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../scripts/pin.sh
source tools/scripts/pin.sh
# shellcheck source=gh.sh
source tools/ci/gh.sh
KIND_VERSION=$(pin kind)
HELM_VERSION=$(pin helm)
mkdir -p .tools/bin
export GOBIN="$PWD/.tools/bin" GOFLAGS=-mod=mod
if [ -n "${OFFLINE_KIND_DIR:-}" ]; then
  [ -x "$OFFLINE_KIND_DIR/kind" ] || { gh_error "OFFLINE_KIND_DIR=$OFFLINE_KIND_DIR holds no kind wrapper (kind)"; exit 2; }
  ln -sfn "$OFFLINE_KIND_DIR/kind" .tools/bin/kind
  echo "kind: the offline wrapper in $OFFLINE_KIND_DIR"
else
  .tools/bin/kind version 2>/dev/null | grep -q "kind ${KIND_VERSION} " || go install "sigs.k8s.io/kind@${KIND_VERSION}"
fi
.tools/bin/helm version --short 2>/dev/null | grep -q "^${HELM_VERSION}" || go install "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}"
.tools/bin/kind version
.tools/bin/helm version --short
