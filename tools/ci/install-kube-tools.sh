#!/usr/bin/env bash
# Pinned kind and helm into .tools/bin (Go module proxy), for the kind target.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../scripts/pin.sh
source tools/scripts/pin.sh
KIND_VERSION=$(pin kind)
HELM_VERSION=$(pin helm)
mkdir -p .tools/bin
export GOBIN="$PWD/.tools/bin" GOFLAGS=-mod=mod
.tools/bin/kind version 2>/dev/null | grep -q "kind ${KIND_VERSION} " || go install "sigs.k8s.io/kind@${KIND_VERSION}"
.tools/bin/helm version --short 2>/dev/null | grep -q "^${HELM_VERSION}" || go install "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}"
.tools/bin/kind version
.tools/bin/helm version --short
