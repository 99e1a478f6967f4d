#!/usr/bin/env bash
# The in-cluster load generator image for Vegeta, built the way build-k6-image.sh builds
# k6's: the pinned Vegeta from .tools/bin plus sh, sleep, cat, date and test (the pod waits
# for its release, keeps its exit code and end time, and stays up until its output is
# copied out), with exactly the libraries they link. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=pin.sh
source tools/scripts/pin.sh
IMAGE=${IMAGE:-localhost/tailgate-vegeta:$(pin vegeta)}
# Rebuilt when this recipe or the Vegeta binary changes (the tag alone names only the version).
recipe=$(cat "$0" .tools/bin/vegeta | sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "tailgate.recipe"}}' "$IMAGE" 2>/dev/null)" = "$recipe" ]; then
  echo "$IMAGE present"; exit 0
fi
root=$(mktemp -d /tmp/tg-vegeta-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/bin" "$root/bin" "$root/tmp" "$root/out" "$root/etc"
chmod 1777 "$root/tmp" "$root/out"
cp .tools/bin/vegeta "$root/usr/bin/vegeta"
for b in /bin/sh /bin/dash /bin/sleep /bin/cat /bin/date /usr/bin/test /usr/bin/touch; do cp -L "$b" "$root/bin/$(basename "$b")"; done
for f in "$root/usr/bin/vegeta" /bin/dash /bin/sleep /bin/cat /bin/date /usr/bin/test /usr/bin/touch; do
  ldd "$f" 2>/dev/null | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'
done | sort -u | while read -r lib; do mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; done
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
tar -C "$root" -c . | docker import --change 'ENV PATH=/usr/bin:/bin' --change "LABEL tailgate.recipe=$recipe" - "$IMAGE" >/dev/null
echo "built $IMAGE"
