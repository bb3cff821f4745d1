# Headless Chromium from Debian's package, for the tests that open the HTML reports as a reader would (console errors,
# drawn charts, screenshots). Nothing is installed into the system: the chromium package and the libraries this
# machine lacks for it are downloaded and unpacked under the tools directory, and a wrapper points the loader there.
install_chromium() {
  local version dir
  # Debian's package index must be present for apt-cache and apt-get download; refresh it only when it is missing.
  if ! apt-cache show chromium >/dev/null 2>&1; then
    [[ "$(id -u)" == 0 ]] || die "the apt package lists are empty; run 'sudo apt-get update' once, then re-run hack/setup.sh chromium"
    apt-get update -qq || die "apt-get update failed; Chromium comes from Debian's package registry"
  fi
  version="$(apt-cache policy chromium | awk '/Candidate:/{print $2}')"
  [[ -n "$version" && "$version" != "(none)" ]] || die "Debian offers no chromium package here; check the apt sources"
  dir="$STACKBENCH_TOOLS/chromium-${version//[^A-Za-z0-9.+-]/_}"
  if [[ ! -x "$dir/root/usr/lib/chromium/chromium" ]]; then
    command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb is needed to unpack Chromium; on Debian: apt-get install dpkg"
    local work="$dir.partial" packages deb as_root=()
    rm -rf "$work" && mkdir -p "$work/debs" "$work/root"
    # What apt would install on this machine: chromium and the libraries missing here, first alternatives only
    # (the recursive closure would pull in every alternative desktop).
    packages="$(apt-get install -s --no-install-recommends chromium 2>/dev/null | awk '/^Inst/{print $2}')"
    [[ -n "$packages" ]] || die "apt-get could not plan an install of chromium; run 'apt-get install -s chromium' to see why"
    # apt-get download drops privileges to _apt, which must be able to write there.
    chmod 755 "$work" "$work/debs"
    [[ "$(id -u)" == 0 ]] && as_root=(-o APT::Sandbox::User=root)
    log "downloading Chromium $version and $(($(wc -w <<<"$packages") - 1)) libraries from Debian..."
    # shellcheck disable=SC2086
    (cd "$work/debs" && apt-get download -qq "${as_root[@]}" $packages) \
      || die "apt-get download of Chromium failed; check that Debian's package registry is reachable"
    for deb in "$work"/debs/*.deb; do
      dpkg-deb -x "$deb" "$work/root"
    done
    rm -rf "$work/debs" "$work/root/usr/share/doc" "$work/root/usr/share/man" "$work/root/usr/share/locale"
    [[ -x "$work/root/usr/lib/chromium/chromium" ]] || die "the chromium package holds no usr/lib/chromium/chromium"
    rm -rf "$dir" && mv "$work" "$dir"
  fi
  # Written every time, so a change here reaches a copy unpacked earlier. The libraries are in the multiarch
  # directories and in private ones beside them (pulseaudio/).
  cat > "$dir/chromium.tmp" <<'EOF'
#!/usr/bin/env bash
# Runs the unpacked Chromium with the libraries unpacked beside it.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lib="$here/root/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$lib:$lib/pulseaudio:$here/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$here/root/usr/lib/chromium/chromium" "$@"
EOF
  chmod 755 "$dir/chromium.tmp" && mv "$dir/chromium.tmp" "$dir/chromium"
  provide STACKBENCH_CHROMIUM "$dir/chromium"
}
