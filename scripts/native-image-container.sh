#!/usr/bin/env bash
# Assembles the root filesystem of a native container image FROM scratch: the executable that
# `./mvnw package -Dnative` built, the libraries `ldd` names for it and the loader, what DNS resolution needs
# (nsswitch.conf, libnss_files, libnss_dns, libresolv), /tmp, and a non-root user (1001, as in the micro image).
# For machines that can pull no base image: users build src/main/docker/Dockerfile.native-micro (docs/native.md).
#
#   scripts/native-image-container.sh            # writes target/native-container/
#   scripts/native-image-container.sh --build    # and builds hookfan/hookfan-native-scratch with podman
#
# The image itself is built by Quarkus' podman extension (`-Dquarkus.container-image.build=true`, see docs/native.md
# and .ci/run) from src/main/docker/Containerfile.native-scratch, which copies this directory; --build does the
# same by hand. Podman needs a containers.conf on these machines: scripts/podman-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

runners=(target/*-runner)
runner="${runners[0]}"
[ -x "$runner" ] || { echo "native-image-container: no native executable (target/*-runner): ./mvnw package -Dnative first" >&2; exit 1; }
file -L "$runner" | grep -q 'ELF 64-bit.*dynamically linked' \
  || { echo "native-image-container: $runner is not a dynamically linked ELF executable" >&2; exit 1; }

context=target/native-container
root="$context/rootfs"
rm -rf "$context"
mkdir -p "$root"/{etc,tmp,work}
chmod 1777 "$root/tmp"

# A file of the host, at the same path in the image, its symlinks resolved (the image holds real files only).
copy() {
  local path="$1"
  mkdir -p "$root$(dirname "$path")"
  cp -L "$path" "$root$path"
}

# Every library the dynamic loader resolves for the executable, and the loader itself (the ELF interpreter).
while read -r line; do
  case "$line" in
    *'=> not found'*) echo "native-image-container: ldd: $line" >&2; exit 1 ;;
    *'=> /'*) copy "$(sed -E 's/.*=> (\/[^ ]+).*/\1/' <<<"$line")" ;;
    /*) copy "${line%% *}" ;;
  esac
done < <(ldd "$runner")
libc_dir=$(dirname "$(ldd "$runner" | sed -nE 's/.*libc\.so\.6 => (\/[^ ]+).*/\1/p')")

# Name resolution: glibc loads these modules at run time (dlopen), so ldd never names them.
for module in libnss_files.so.2 libnss_dns.so.2 libresolv.so.2; do
  copy "$libc_dir/$module"
done
cat > "$root/etc/nsswitch.conf" <<'EOF'
passwd: files
group:  files
hosts:  files dns
EOF
# /etc/hosts and /etc/resolv.conf are the container runtime's to provide (the host's, with --network=host).
cat > "$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
hookfan:x:1001:0:Hookfan:/work:/sbin/nologin
EOF
cat > "$root/etc/group" <<'EOF'
root:x:0:
EOF

# The executable beside the root, not in it: the image copies it in a layer of its own, owned by the user.
cp "$runner" "$context/application"
chmod 0755 "$context/application"

echo "native-image-container: $context from $runner ($(du -sh "$context" | cut -f1)):"
(cd "$context" && find . -type f | sort | sed 's/^\./  /')

if [ "${1:-}" = "--build" ]; then
  # shellcheck source=scripts/podman-env.sh
  source scripts/podman-env.sh
  podman build -f src/main/docker/Containerfile.native-scratch -t "${HOOKFAN_IMAGE:-hookfan/hookfan-native-scratch}" .
fi
