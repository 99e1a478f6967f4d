#!/usr/bin/env bash
# build-engine-image.sh k6|vegeta: the in-cluster load generator image of an engine, for
# machines that cannot pull one (docs/engines.md): the pinned binary from .tools/bin plus
# the few tools its pod's shell uses — sh, sleep and cat (the pod stays up until its output
# is copied out), date (each runner's end time), test and touch (Vegeta's runners wait for
# their release) — with exactly the libraries they link. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=pin.sh
source tools/scripts/pin.sh
engine=${1:?engine: k6 or vegeta}
case "$engine" in k6|vegeta) ;; *) echo "build-engine-image: engine must be k6 or vegeta, got '$engine'" >&2; exit 2 ;; esac
IMAGE=${IMAGE:-localhost/tailgate-$engine:$(pin "$engine")}
bin=.tools/bin/$engine
[ -x "$bin" ] || { echo "build-engine-image: $bin is not installed (make setup)" >&2; exit 4; }
# Rebuilt when this recipe or the binary changes (the tag alone names only the version).
recipe=$(cat "$0" "$bin" | sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "tailgate.recipe"}}' "$IMAGE" 2>/dev/null)" = "$recipe" ]; then
  echo "$IMAGE present"; exit 0
fi
root=$(mktemp -d "/tmp/tg-$engine-rootfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/bin" "$root/bin" "$root/tmp" "$root/out" "$root/etc"
chmod 1777 "$root/tmp" "$root/out"
cp "$bin" "$root/usr/bin/$engine"
tools=(/bin/sh /bin/dash /bin/sleep /bin/cat /bin/date /usr/bin/test /usr/bin/touch)
for b in "${tools[@]}"; do cp -L "$b" "$root/bin/$(basename "$b")"; done
for f in "$root/usr/bin/$engine" "${tools[@]:1}"; do
  ldd "$f" 2>/dev/null | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'
done | sort -u | while read -r lib; do mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; done
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
tar -C "$root" -c . | docker import --change 'ENV PATH=/usr/bin:/bin' --change "LABEL tailgate.recipe=$recipe" - "$IMAGE" >/dev/null
echo "built $IMAGE"
