#!/usr/bin/env bash
# Builds the backend image for machines that cannot pull one: the host's Debian
# nginx (with the Lua module, for injected delays) and exactly the shared libraries
# it links, packed into a rootfs and `docker import`ed. Idempotent.
#   IMAGE=localhost/tailgate-backend-nginx:1.22.1 tools/scripts/build-backend-image.sh
set -euo pipefail
IMAGE=${IMAGE:-localhost/tailgate-backend-nginx:1.22.1}
if docker image inspect "$IMAGE" >/dev/null 2>&1; then echo "$IMAGE present"; exit 0; fi
root=$(mktemp -d /tmp/tg-backend-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
files=(/usr/sbin/nginx /usr/lib/nginx/modules/ndk_http_module.so /usr/lib/nginx/modules/ngx_http_lua_module.so)
libs=$(for f in "${files[@]}"; do ldd "$f" | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'; done | sort -u)
for f in "${files[@]}" $libs; do mkdir -p "$root$(dirname "$f")"; cp -L "$f" "$root$f"; done
# lua-resty-core / lrucache, which the Lua module loads at start.
mkdir -p "$root/usr/share/lua/5.1" && cp -r /usr/share/lua/5.1/. "$root/usr/share/lua/5.1/"
mkdir -p "$root/etc" "$root/tmp" "$root/var/log/nginx" "$root/var/lib/nginx" "$root/run"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/false\nwww-data:x:33:33:www-data:/var/www:/bin/false\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$root/etc/passwd"
printf 'root:x:0:\nwww-data:x:33:\nnogroup:x:65534:\n' > "$root/etc/group"
tar -C "$root" -c . | docker import \
  --change 'ENTRYPOINT ["/usr/sbin/nginx"]' \
  --change 'CMD ["-g", "daemon off;", "-c", "/etc/tailgate/nginx.conf"]' \
  - "$IMAGE" >/dev/null
echo "built $IMAGE"
