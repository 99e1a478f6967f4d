#!/usr/bin/env bash
# The Envoy Gateway *controller* for machines that cannot pull images: built from the Go
# module proxy's github.com/envoyproxy/gateway at the catalog's pinned version (checked
# against go.sum by the go command), a static binary in a FROM-scratch image. Envoy
# itself (C++) cannot be built here: the controller runs and renders its Envoy
# Deployment, whose pods then cannot pull — enough to check what tailgate asks of it.
#   IMAGE=localhost/envoy-gateway:v1.9.1 tools/scripts/build-envoy-gateway-image.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
version=$(sed -n 's/^chart: .*version: \(v[0-9.]*\) }$/\1/p' charts/controllers/envoy-gateway/controller.yaml)
[ -n "$version" ] || { echo "build-envoy-gateway-image: no pinned version in charts/controllers/envoy-gateway/controller.yaml" >&2; exit 2; }
IMAGE=${IMAGE:-localhost/envoy-gateway:$version}
if docker image inspect "$IMAGE" >/dev/null 2>&1; then echo "$IMAGE present"; exit 0; fi
work=$(mktemp -d /tmp/tg-envoy-gateway-image.XXXXXX)
trap 'rm -rf "$work"' EXIT
GOFLAGS=-mod=mod CGO_ENABLED=0 GOBIN="$work" go install -trimpath -ldflags=-s \
  "github.com/envoyproxy/gateway/cmd/envoy-gateway@$version"
# The chart runs `envoy-gateway certgen` and `envoy-gateway server` by name.
printf 'FROM scratch\nCOPY envoy-gateway /usr/local/bin/envoy-gateway\nENV PATH=/usr/local/bin\nUSER 65532:65532\nENTRYPOINT ["/usr/local/bin/envoy-gateway"]\n' > "$work/Dockerfile"
docker build -q -t "$IMAGE" "$work" >/dev/null
echo "built $IMAGE"
