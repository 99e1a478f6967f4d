#!/usr/bin/env bash
# The in-cluster load generator image for machines that cannot pull grafana/k6:
# the pinned k6 from .tools/bin plus sh, sleep and cat (to keep the pod alive until
# its output is copied out; date for each runner's end time), with exactly the libraries they link. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=pin.sh
source tools/scripts/pin.sh
IMAGE=${IMAGE:-localhost/tailgate-k6:$(pin k6)}
# Rebuilt when this recipe or the k6 binary changes (the tag alone names only the version).
recipe=$(cat "$0" .tools/bin/k6 | sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "tailgate.recipe"}}' "$IMAGE" 2>/dev/null)" = "$recipe" ]; then
  echo "$IMAGE present"; exit 0
fi
root=$(mktemp -d /tmp/tg-k6-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/bin" "$root/bin" "$root/tmp" "$root/out" "$root/etc"
chmod 1777 "$root/tmp" "$root/out"
cp .tools/bin/k6 "$root/usr/bin/k6"
for b in /bin/sh /bin/dash /bin/sleep /bin/cat /bin/date; do cp -L "$b" "$root$b"; done
for f in "$root/usr/bin/k6" /bin/dash /bin/sleep /bin/cat /bin/date; do
  ldd "$f" 2>/dev/null | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'
done | sort -u | while read -r lib; do mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; done
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
tar -C "$root" -c . | docker import --change 'ENV PATH=/usr/bin:/bin' --change "LABEL tailgate.recipe=$recipe" - "$IMAGE" >/dev/null
echo "built $IMAGE"
