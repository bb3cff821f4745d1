# CoreDNS, the cluster DNS of the test cluster's real worker nodes (hack/cluster.sh), built from the
# Go module proxy. hack/cluster/coredns is a wrapper module that links only the plugins a test
# cluster needs (kubernetes, cache, errors, log, health, ready, loop, bind) and no `forward`, so
# the DNS server never sends a query off the machine.
install_coredns() {
  local module="$STACKBENCH_ROOT/hack/cluster/coredns" version dir
  version="$(awk -v m=github.com/coredns/coredns '/^[[:space:]]*\/\// { next } { for (i = 1; i < NF; i++) if ($i == m) { print $(i + 1); exit } }' "$module/go.mod")"
  [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot read the github.com/coredns/coredns version from $module/go.mod"
  dir="$STACKBENCH_TOOLS/coredns-$version"
  if [[ ! -x "$dir/coredns" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build CoreDNS $version: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building CoreDNS $version from the Go module proxy (a few minutes on a cold cache)..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    # CoreDNS prints GitCommit after its version (-version, and at start-up); the module proxy
    # knows no commit, so it carries the release tag the build comes from.
    (cd "$module" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/coredns/coredns/coremain.GitCommit=$version" -o "$dir.partial/coredns" .) \
      || die "building CoreDNS $version failed; see the Go output above"
    local src
    src="$(cd "$module" && go list -m -f '{{.Dir}}' github.com/coredns/coredns)" || src=""
    [[ -f "$src/LICENSE" ]] || die "cannot find CoreDNS $version's LICENSE in the Go module cache (looked in '$src')"
    cp "$src/LICENSE" "$dir.partial/LICENSE" && chmod u+w "$dir.partial/LICENSE"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_COREDNS "$dir/coredns"
}
