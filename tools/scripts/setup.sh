#!/usr/bin/env bash
# Idempotent set-up in layers, on a fresh Debian/Ubuntu machine:
#   setup.sh report  what the gate job needs: gnuplot and the run-time npm dependencies
#   setup.sh bench   what `make bench` needs: OS packages, the load engines (Vegeta; k6's
#                    release where it downloads), npm dependencies
#   setup.sh package the same without npm (`tailgate setup` in an installed package: the
#                    package manager brought its dependencies, and no lock file ships)
#   setup.sh         (or `test`) adds what only the tests use: workflow linters, helm and
#                    kubeconform with the Kubernetes schemas (chart tests), zizmor, cmarkgfm
# Each step says how long it took; a warm re-run is a few dpkg/stat checks.
set -euo pipefail
cd "$(dirname "$0")/../.."
LAYER=${1:-test}
case "$LAYER" in report|bench|package|test) ;; *) echo "setup: layer must be report, bench, package or test, got '$LAYER'" >&2; exit 2 ;; esac

# shellcheck source=pin.sh
source tools/scripts/pin.sh
K6_VERSION=$(pin k6)
APT_PACKAGES=(nginx libnginx-mod-http-lua lua-resty-core haproxy gnuplot-nox iproute2 procps openssl)
[ "$LAYER" = report ] && APT_PACKAGES=(gnuplot-nox)
# The history page is tested in a real headless browser (history-page.test.js).
[ "$LAYER" = test ] && APT_PACKAGES+=(chromium)
LOCAL_BIN="$PWD/.tools/bin"
mkdir -p "$LOCAL_BIN"

step_started=$(date +%s%N)
step() { # prints the previous step's time, then the new step
  local now; now=$(date +%s%N)
  printf '==> %s\n' "$*"
  STEP_MS=$(( (now - step_started) / 1000000 )); step_started=$now
  [ "${SETUP_TIMES:-1}" = 0 ] || [ "$STEP_MS" -lt 1000 ] || printf '    (previous step: %d.%d s)\n' $((STEP_MS / 1000)) $((STEP_MS % 1000 / 100))
}

# The bench layer installs the run-time dependencies only; the test layer adds the
# formatter and linter. A stamp per layer: the test layer's install serves both.
npm_deps() {
  local layer=$1 stamp=node_modules/.tailgate-lock-stamp-$1
  if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then
    step "npm dependencies up to date"
  elif [ "$layer" = bench ] && [ -f node_modules/.tailgate-lock-stamp-test ] && cmp -s package-lock.json node_modules/.tailgate-lock-stamp-test; then
    step "npm dependencies up to date (test layer)"
  else
    step "npm ci${layer:+ ($layer layer)}"
    if [ "$layer" = bench ]; then npm ci --omit=dev --no-audit --no-fund --loglevel=error
    else npm ci --no-audit --no-fund --loglevel=error; fi
    rm -f node_modules/.tailgate-lock-stamp-*
    cp package-lock.json "$stamp"
  fi
}

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  step "installing OS packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # The packages' own service scripts would start nginx/haproxy on :80; tailgate starts its own.
  printf '#!/bin/sh\nexit 101\n' > /tmp/tailgate-policy-rc.d && chmod +x /tmp/tailgate-policy-rc.d
  $SUDO cp /tmp/tailgate-policy-rc.d /usr/sbin/policy-rc.d
  ($SUDO apt-get install -y --no-install-recommends "${missing[@]}" || { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; })
  $SUDO rm -f /usr/sbin/policy-rc.d
else
  step "OS packages present"
fi

if [ "$LAYER" = report ]; then npm_deps bench; step "report layer ready"; exit 0; fi

# Two load engines (docs/engines.md). k6 only as its official release binary, checksum
# verified, where GitHub's releases download; never built from its Go module (AGPL, marked
# not to use by the registries this builds from). Vegeta (MIT) always: it is what runs where
# k6's release cannot be had (engine: auto), and a small Go build through the module proxy.
have_k6() { "$1" version 2>/dev/null | grep -q "k6 ${K6_VERSION} "; }
if have_k6 "$LOCAL_BIN/k6"; then
  step "k6 ${K6_VERSION} present (.tools/bin/k6)"
elif command -v k6 >/dev/null && have_k6 "$(command -v k6)"; then
  step "k6 ${K6_VERSION} present on PATH"
elif [ -f "$LOCAL_BIN/.k6-unavailable-${K6_VERSION}" ] && [ "${TAILGATE_RETRY_K6:-0}" != 1 ]; then
  step "k6 ${K6_VERSION}: no release download here (checked before; TAILGATE_RETRY_K6=1 tries again): Vegeta runs"
else
  step "getting k6 ${K6_VERSION} (its release binary, checksum verified)"
  rc=0; tools/scripts/get-k6.sh "$LOCAL_BIN" || rc=$?
  case $rc in
    0) rm -f "$LOCAL_BIN/.k6-unavailable-${K6_VERSION}" ;;
    3) touch "$LOCAL_BIN/.k6-unavailable-${K6_VERSION}" ;;
    *) exit $rc ;;
  esac
fi
VEGETA_VERSION=$(pin vegeta)
vegeta_ok() { [ -x "$LOCAL_BIN/vegeta" ] && [ -f "$LOCAL_BIN/.vegeta-$VEGETA_VERSION" ]; }
if vegeta_ok; then
  step "vegeta $VEGETA_VERSION present"
elif command -v go >/dev/null; then
  step "building vegeta $VEGETA_VERSION with go install (MIT; the Go module proxy)"
  GOBIN="$LOCAL_BIN" GOFLAGS=-mod=mod go install "github.com/tsenart/vegeta/v12@$VEGETA_VERSION"
  touch "$LOCAL_BIN/.vegeta-$VEGETA_VERSION"
elif ! have_k6 "$LOCAL_BIN/k6"; then
  echo "setup: no k6 release download and no Go to build Vegeta: install Go (apt-get install golang) or k6 ${K6_VERSION}'s release binary" >&2
  exit 4
fi

if [ "$LAYER" = package ]; then step "package layer ready"; exit 0; fi
if [ "$LAYER" = bench ]; then npm_deps bench; step "bench layer ready"; exit 0; fi

# Test-only tools: workflow linters and helm (chart lint/template), pinned.
ACTIONLINT_VERSION=$(pin actionlint)
HELM_VERSION=$(pin helm)
ZIZMOR_VERSION=$(pin zizmor)
KUBECONFORM_VERSION=$(pin kubeconform)
ACT_VERSION=$(pin act)
K8S_SCHEMA_VERSION=$(pin kubernetes)
go_tool() { # name module version: a stamp records which version .tools/bin holds
  local stamp="$LOCAL_BIN/.$1-$3"
  if [ -x "$LOCAL_BIN/$1" ] && [ -f "$stamp" ]; then
    step "$1 $3 present"
  else
    step "building $1 $3 with go install"
    GOBIN="$LOCAL_BIN" GOFLAGS=-mod=mod go install "$2@$3"
    touch "$stamp"
  fi
}
if command -v go >/dev/null; then
  go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint "$ACTIONLINT_VERSION"
  go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
  go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
  # act runs the real workflow files in make test-workflows (jobs on this host).
  go_tool act github.com/nektos/act "$ACT_VERSION"
  # fortio, whose output `tailgate ingest --format fortio` reads, run against the local
  # nginx by ingest-tools.test.js: its pin is the newest release whose dependencies the Go
  # module registry serves here (from 1.69 on it needs grol.io/grol).
  go_tool fortio fortio.org/fortio "$(pin fortio)"
  # Kubernetes JSON schemas for kubeconform, from the OpenAPI spec inside the
  # k8s.io/kubernetes module (fetched through the Go module proxy: works offline).
  schemas=".tools/k8s-schemas/$K8S_SCHEMA_VERSION"
  if [ ! -f "$schemas/deployment-apps-v1.json" ] || [ ! -f "$schemas/_definitions.json" ]; then
    step "generating Kubernetes $K8S_SCHEMA_VERSION schemas for kubeconform"
    dir=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$K8S_SCHEMA_VERSION" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')
    node tools/scripts/k8s-schemas.js "$dir/api/openapi-spec/swagger.json" "$schemas"
  else
    step "Kubernetes schemas present"
  fi
fi
if "$LOCAL_BIN/zizmor" --version 2>/dev/null | grep -q "$ZIZMOR_VERSION"; then
  step "zizmor present"
else
  step "installing zizmor $ZIZMOR_VERSION into .tools/venv"
  python3 -m venv .tools/venv
  .tools/venv/bin/pip install --quiet "zizmor==$ZIZMOR_VERSION"
  ln -sf ../venv/bin/zizmor "$LOCAL_BIN/zizmor"
fi
py_package() { # venv package: the version tools/versions.json pins, installed into .tools/<venv>
  local venv=".tools/$1" want; want=$(pin "$2")
  if "$venv/bin/python" -c "import sys; from importlib.metadata import version; sys.exit(version('$2') != '$want')" 2>/dev/null; then
    step "$2 present"
  else
    step "installing $2 $want into $venv"
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "$2==$want"
  fi
}
# GitHub's own Markdown engine (cmark-gfm, through its Python binding): the PR comment
# tests render with it, as github.com does.
py_package venv cmarkgfm
# Apache Otava (PyPI), the field's change-point reference: history.test.js matches
# tailgate's change points against it. Its own venv: it brings numpy and scipy.
py_package otava apache-otava

npm_deps test
step "test layer ready"
