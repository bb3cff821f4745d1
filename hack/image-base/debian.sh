# Unpacks Debian packages into a root filesystem, for the images built with no Docker engine (build.sh,
# k6-images.sh). Source it after lib.sh. No maintainer scripts run: what a package's postinst would create
# is set up by the caller.

# The tools the image builds need, checked once with an install hint.
require_image_tools() {
  local tool
  for tool in dpkg-deb apt-get apt-cache python3 sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is needed to build the images; on Debian/Ubuntu: apt-get install dpkg apt python3 coreutils"
  done
}

# Prints the packages needed to run the given ones: themselves and their Depends/Pre-Depends, recursively,
# without Recommends and without the package manager, which nothing in an image runs.
debian_closure() {
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
      --no-enhances "$@" \
    | grep -v '^[ <]' | sort -u | grep -vxE 'dpkg|install-info|tar|debconf|perl-base' || true
}

# unpack_debian_packages ROOTFS WORKDIR PACKAGE...: downloads the packages into WORKDIR/debs and unpacks them
# into ROOTFS, dropping documentation but keeping the licences. Sets DEBIAN_VERSIONS to "name=version ...".
unpack_debian_packages() {
  local rootfs="$1" work="$2"; shift 2
  local packages=("$@") deb
  mkdir -p "$rootfs" "$work/debs"
  # apt-get download drops privileges to _apt, which must be able to write there.
  chmod 755 "$work" "$work/debs"
  # Debian's package index must be present for apt-get download; refresh it only when it is missing.
  if ! apt-cache show "${packages[0]}" >/dev/null 2>&1; then
    if [[ "$(id -u)" == 0 ]]; then
      apt-get update -qq || die "apt-get update failed; the images need Debian's package registry"
    else
      die "the apt package lists are empty; run 'sudo apt-get update' once, then re-run hack/images.sh"
    fi
  fi
  local sandbox_as_root=""
  # As root, apt drops to the _apt user, which cannot write into our private temp dir.
  [[ "$(id -u)" == 0 ]] && sandbox_as_root=1
  log "downloading ${packages[*]} from the Debian package registry"
  (cd "$work/debs" && apt-get download -qq ${sandbox_as_root:+-o APT::Sandbox::User=root} "${packages[@]}") \
    || die "apt-get download ${packages[*]} failed; check that the Debian package registry is reachable"
  DEBIAN_VERSIONS=""
  for deb in "$work"/debs/*.deb; do
    dpkg-deb -x "$deb" "$rootfs"
    DEBIAN_VERSIONS+="${DEBIAN_VERSIONS:+ }$(dpkg-deb -f "$deb" Package)=$(dpkg-deb -f "$deb" Version)"
  done
  # Documentation and translations are dead weight in a container; the licences (copyright files) stay.
  find "$rootfs/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true
  rm -rf "$rootfs/usr/share/man" "$rootfs/usr/share/info" "$rootfs/usr/share/locale" "$rootfs/usr/share/lintian"
}

# add_image_users ROOTFS: root for the system files, 65532 (nonroot) to run as, and a writable /tmp.
add_image_users() {
  local rootfs="$1"
  mkdir -p "$rootfs/etc" "$rootfs/tmp" "$rootfs/home/nonroot"
  chmod 1777 "$rootfs/tmp"
  printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' \
    > "$rootfs/etc/passwd"
  printf '%s\n' 'root:x:0:' 'nonroot:x:65532:' > "$rootfs/etc/group"
  chmod 644 "$rootfs/etc/passwd" "$rootfs/etc/group"
}
