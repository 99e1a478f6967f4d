#!/usr/bin/env bash
# get-k6.sh <bin-dir>: the pinned k6 from its official release only, checked against the
# release's published sha256 checksums (hosted runners, laptops that reach GitHub). k6 is
# never built from its Go module: that module is under the AGPL and the package registries
# this project builds from mark it not to be used. Where the release cannot be downloaded
# tailgate runs its other engine, Vegeta (docs/engines.md): exit 3, one line, no error.
# A checksum that does not match is an error (exit 4), never a reason to fall back.
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

rc=0; release || rc=$?
if [ $rc != 0 ]; then
  [ $rc = 2 ] && exit 4
  echo "get-k6: k6 ${version}'s release cannot be downloaded here; tailgate uses Vegeta (engine: auto)" >&2
  exit 3
fi
"$dest/k6" version 2>/dev/null | grep -q "k6 ${version} " || { echo "get-k6: $dest/k6 does not report ${version}" >&2; exit 4; }
echo "k6 ${version}: release binary, checksum verified"
