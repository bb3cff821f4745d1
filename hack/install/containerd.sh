# containerd and runc for the real worker nodes of the test cluster (hack/cluster.sh), taken from
# Debian's packages but never installed system-wide: the .debs are unpacked into the tools directory
# and the binaries a node needs are put flat in its bin/ directory, next to the packages' licences.
# Nothing here writes to /etc or starts a daemon; hack/cluster.sh runs containerd with its own
# configuration, state and socket.
#
# The pins are Debian bookworm's current builds. When Debian replaces one (a security update),
# apt-get download can no longer find it: setup stops and names the versions the mirror has.
CONTAINERD_DEBIAN_VERSION="1.6.20~ds1-1+deb12u3"
RUNC_DEBIAN_VERSION="1.1.5+ds1-1+deb12u1"

# The binaries a node runs: the daemon, the shim it starts per pod sandbox, the OCI runtime the
# shim calls, and ctr for looking inside by hand.
CONTAINERD_BINARIES=(containerd containerd-shim-runc-v2 ctr runc)

# debian_version_available PACKAGE VERSION: whether the package index knows this exact version.
debian_version_available() {
  apt-cache madison "$1" 2>/dev/null | awk -F'|' -v v="$2" '{ gsub(/ /, "", $2); if ($2 == v) found = 1 } END { exit !found }'
}

install_containerd() {
  local dir="$STACKBENCH_TOOLS/containerd-$CONTAINERD_DEBIAN_VERSION" stamp b src
  stamp="containerd=$CONTAINERD_DEBIAN_VERSION runc=$RUNC_DEBIAN_VERSION"
  local ready=1
  for b in "${CONTAINERD_BINARIES[@]}"; do [[ -x "$dir/bin/$b" ]] || ready=""; done
  # The directory is named after containerd only; the stamp makes a runc bump rebuild it too.
  [[ -n "$ready" && "$(cat "$dir/versions" 2>/dev/null)" == "$stamp" ]] || ready=""
  if [[ -z "$ready" ]]; then
    local tool
    for tool in apt-get apt-cache dpkg-deb; do
      command -v "$tool" >/dev/null 2>&1 \
        || die "$tool is needed to fetch containerd and runc from Debian's packages; this needs a Debian or Ubuntu host (apt and dpkg)"
    done
    local pkg version want=("containerd=$CONTAINERD_DEBIAN_VERSION" "runc=$RUNC_DEBIAN_VERSION") refreshed=""
    for pkg in "${want[@]}"; do
      version="${pkg#*=}"; pkg="${pkg%%=*}"
      # An empty or older package index does not know the pinned build; refresh it once, as root.
      if ! debian_version_available "$pkg" "$version" && [[ -z "$refreshed" && "$(id -u)" == 0 ]]; then
        log "refreshing the Debian package index to find $pkg $version..."
        apt-get update -qq || die "apt-get update failed; containerd and runc come from Debian's package registry, which must be reachable"
        refreshed=1
      fi
      if ! debian_version_available "$pkg" "$version"; then
        local available
        available="$(apt-cache madison "$pkg" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -u | paste -sd' ' -)"
        if [[ -z "$available" && "$(id -u)" != 0 ]]; then
          die "the apt package lists do not know $pkg; run 'sudo apt-get update' once, then re-run hack/setup.sh"
        fi
        [[ "$(id -u)" == 0 ]] || available+=" as of this host's package lists; 'sudo apt-get update' refreshes them"
        die "Debian's package registry has no $pkg $version (it has: ${available:-nothing}); \
pin one of those in hack/install/containerd.sh (CONTAINERD_DEBIAN_VERSION / RUNC_DEBIAN_VERSION) and re-run hack/setup.sh"
      fi
    done

    log "fetching containerd $CONTAINERD_DEBIAN_VERSION and runc $RUNC_DEBIAN_VERSION from Debian's packages..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial/debs" "$dir.partial/bin" "$dir.partial/licenses"
    # As root, apt-get download drops to the _apt user, which cannot write into the tools directory.
    local sandbox_as_root=""
    [[ "$(id -u)" == 0 ]] && sandbox_as_root=1
    (cd "$dir.partial/debs" && apt-get download -qq ${sandbox_as_root:+-o APT::Sandbox::User=root} "${want[@]}") \
      || die "apt-get download ${want[*]} failed; check that Debian's package registry is reachable"
    local deb root="$dir.partial/root" got=""
    for deb in "$dir.partial"/debs/*.deb; do
      dpkg-deb -x "$deb" "$root" || die "cannot unpack $deb"
      got+="${got:+ }$(dpkg-deb -f "$deb" Package)=$(dpkg-deb -f "$deb" Version)"
    done
    [[ "$(tr ' ' '\n' <<< "$got" | sort | paste -sd' ' -)" == "$stamp" ]] \
      || die "apt-get download returned '$got' instead of '$stamp'"
    for b in "${CONTAINERD_BINARIES[@]}"; do
      # runc is in /usr/sbin (with a /usr/bin symlink), the containerd binaries in /usr/bin.
      src=""
      [[ -f "$root/usr/bin/$b" && ! -L "$root/usr/bin/$b" ]] && src="$root/usr/bin/$b"
      [[ -z "$src" && -f "$root/usr/sbin/$b" ]] && src="$root/usr/sbin/$b"
      [[ -n "$src" ]] || die "the Debian packages ${want[*]} contain no $b"
      mv "$src" "$dir.partial/bin/$b"
    done
    # Both packages are Apache-2.0; their copyright and NOTICE files travel with the binaries.
    for pkg in containerd runc; do
      mkdir -p "$dir.partial/licenses/$pkg"
      cp "$root/usr/share/doc/$pkg/copyright" "$root/usr/share/doc/$pkg/NOTICE" "$dir.partial/licenses/$pkg/" \
        || die "the $pkg package has no copyright or NOTICE file"
    done
    rm -rf "$root" "$dir.partial/debs"
    printf '%s\n' "$stamp" > "$dir.partial/versions"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  # Debian links these binaries against the host's libc, and runc against libseccomp; checked on
  # every run because the tools directory may outlive a host change.
  local unresolved
  for b in "${CONTAINERD_BINARIES[@]}"; do
    unresolved="$(ldd "$dir/bin/$b" 2>&1 | awk '/not found/ { print $1 }' | paste -sd' ' -)"
    [[ -z "$unresolved" ]] || die "$dir/bin/$b needs shared libraries this host lacks ($unresolved); \
on Debian/Ubuntu: apt-get install libc6 libseccomp2"
  done
  provide STACKBENCH_CONTAINERD_BIN "$dir/bin"
}
