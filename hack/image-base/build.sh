#!/usr/bin/env bash
# Builds the base image the stackbench images are layered on when no container registry is reachable:
# a minimal root filesystem unpacked from Debian packages (packages.txt) plus a Java runtime linked with
# jlink from the build machine's JDK (jre-modules.txt), non-root user 65532, no shell tools, no package
# manager. Writes a `docker save` tarball that Jib uses as `tar://` base image, and prints its path.
#
#   hack/image-base/build.sh            build (or reuse) the base image, print the tar's path
#
# The result is cached under $STACKBENCH_TOOLS/image-base/<key>/ where the key covers the package list,
# the module list, these scripts and the JDK's version, so a second run is instant.
# Needs: dpkg-deb, apt-get (Debian/Ubuntu package lists; `apt-get update` is run when they are empty and
# we are root), python3, a JDK >= 21 with jlink.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE="$STACKBENCH_ROOT/hack/image-base"

BASE_IMAGE_NAME="stackbench/base-jre"
IMAGE_USER="65532:65532"
JAVA_DIR="/opt/java/openjdk"

# JAVA_HOME from select_jdk is the JDK to link; STACKBENCH_IMAGE_JDK overrides it (e.g. a Temurin 25).
select_jdk
jdk="${STACKBENCH_IMAGE_JDK:-$JAVA_HOME}"
[[ -x "$jdk/bin/jlink" ]] || die "no jlink in $jdk: point STACKBENCH_IMAGE_JDK at a full JDK (not a JRE)"
source "$HERE/debian.sh"
require_image_tools

packages=()
while read -r line; do
  line="${line%%#*}"; line="${line// /}"
  [[ -n "$line" ]] && packages+=("$line")
done < "$HERE/packages.txt"
modules="$(grep -v '^#' "$HERE/jre-modules.txt" | grep -v '^\s*$' | paste -sd, -)"
jdk_version="$("$jdk/bin/java" -version 2>&1 | tr '\n' ' ')"

key="$(cat "$HERE/packages.txt" "$HERE/jre-modules.txt" "$HERE/build.sh" "$HERE/debian.sh" "$HERE/write_image.py" \
  <(printf '%s' "$jdk_version") | sha256sum | cut -c1-16)"
out_dir="$STACKBENCH_TOOLS/image-base/$key"
out_tar="$out_dir/base-image.tar"
if [[ -f "$out_tar" ]]; then
  printf '%s\n' "$out_tar"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
unpack_debian_packages "$rootfs" "$work" "${packages[@]}"
read -ra versions <<< "$DEBIAN_VERSIONS"

log "linking a Java runtime from $jdk"
mkdir -p "$rootfs/opt/java"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --output "$rootfs$JAVA_DIR" || die "jlink failed; check that $jdk is a complete JDK"

add_image_users "$rootfs"

mkdir -p "$out_dir"
python3 "$HERE/write_image.py" "$rootfs" "$out_tar" "$BASE_IMAGE_NAME:$key" \
  --env "PATH=$JAVA_DIR/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --env "JAVA_HOME=$JAVA_DIR" \
  --env "LANG=C.UTF-8" \
  --user "$IMAGE_USER" --workdir /home/nonroot --owned-by-user home/nonroot \
  --label "org.opencontainers.image.description=stackbench base: Debian ${versions[*]} + jlink runtime" \
  --label "dev.stackbench.java.version=$("$rootfs$JAVA_DIR/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.runtime.version = //p')" \
  || die "writing the base image tar failed"
# Base images of older inputs are never used again.
find "$STACKBENCH_TOOLS/image-base" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
log "base image: $out_tar ($(du -h "$out_tar" | cut -f1))"
printf '%s\n' "$out_tar"
