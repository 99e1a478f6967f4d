#!/usr/bin/env bash
# get-k6.sh <bin-dir>: the pinned k6 where it is fastest to get. The release binary,
# checked against the release's published sha256 checksums, where GitHub's releases can
# be downloaded (hosted runners, laptops); else built from source with `go install`
# through the Go module proxy (machines that reach only package registries). Either way
# `k6 version` must print the pin. A checksum that does not match is an error, never a
# reason to fall back. K6_SOURCE=release|source forces one way (default: auto).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=pin.sh
source "$here/pin.sh"
dest=${1:?bin dir}
version=$(pin k6)
mkdir -p "$dest"
case "$(uname -m)" in x86_64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=unknown ;; esac
name="k6-${version}-linux-${arch}"
base=${K6_RELEASE_URL:-https://github.com/grafana/k6/releases/download/${version}}

release() { # 0 installed · 1 could not download · 2 checksum mismatch
  local tmp; tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  command -v curl >/dev/null && [ "$arch" != unknown ] || return 1
  curl -fsSL --connect-timeout 5 --max-time 120 -o "$tmp/$name.tar.gz" "$base/$name.tar.gz" 2>/dev/null || return 1
  curl -fsSL --connect-timeout 5 --max-time 30 -o "$tmp/sums" "$base/k6-${version}-checksums.txt" 2>/dev/null || return 1
  local want got
  want=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f {print $1}' "$tmp/sums")
  got=$(sha256sum "$tmp/$name.tar.gz" | cut -d' ' -f1)
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "get-k6: $name.tar.gz sha256 $got does not match the release's checksums (${want:-no entry}): refusing it" >&2
    return 2
  fi
  tar -xzf "$tmp/$name.tar.gz" -C "$tmp" "$name/k6"
  install -m 0755 "$tmp/$name/k6" "$dest/k6"
}

source_build() {
  command -v go >/dev/null || { echo "get-k6: no release download and no Go to build k6 ${version} (apt-get install golang)" >&2; exit 4; }
  GOBIN="$dest" GOFLAGS=-mod=mod go install "go.k6.io/k6@${version}"
}

how=${K6_SOURCE:-auto}
case "$how" in
  release) release || { rc=$?; [ $rc = 2 ] && exit 4; echo "get-k6: cannot download $base/$name.tar.gz" >&2; exit 4; } ;;
  source) source_build ;;
  auto)
    if release; then how=release
    else
      rc=$?
      [ $rc = 2 ] && exit 4
      how=source; source_build
    fi ;;
  *) echo "get-k6: K6_SOURCE must be auto, release or source, got '$how'" >&2; exit 2 ;;
esac
"$dest/k6" version 2>/dev/null | grep -q "k6 ${version} " || { echo "get-k6: $dest/k6 does not report ${version}" >&2; exit 4; }
if [ "$how" = release ]; then echo "k6 ${version}: release binary, checksum verified"; else echo "k6 ${version}: built from source (go install)"; fi
