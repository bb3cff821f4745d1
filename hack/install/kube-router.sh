# kube-router's network policy controller, the NetworkPolicy enforcer of the test cluster's real worker nodes
# (hack/cluster.sh up --real-nodes), whose CNI bridge enforces none. Built from the Go module proxy:
# hack/cluster/kube-router is a wrapper module that requires the kube-router release and runs its network policy
# controller alone, for every pod of the four nodes that share this machine's network namespace (see its main.go).
# It filters with iptables and ip sets, which this kernel has (ipset itself comes from Debian:
# hack/install/node-host.sh); the nftables + nfqueue enforcer (sigs.k8s.io/kube-network-policies) needs the nft
# `queue` expression, which kernels built without CONFIG_NFT_QUEUE (the development machine's) lack.
install_kube_router() {
  local module="$STACKBENCH_ROOT/hack/cluster/kube-router" upstream=github.com/cloudnativelabs/kube-router/v2 version dir
  version="$(awk -v m="$upstream" '/^[[:space:]]*\/\// { next } { for (i = 1; i < NF; i++) if ($i == m) { print $(i + 1); exit } }' "$module/go.mod")"
  [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot read the $upstream version from $module/go.mod"
  dir="$STACKBENCH_TOOLS/kube-router-$version"
  if [[ ! -x "$dir/kube-router" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build kube-router $version: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building kube-router $version's network policy controller from the Go module proxy (a few minutes on a cold cache)..."
    local released
    released="$(cd "$module" && go list -m -f '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}' "$upstream")" \
      || die "cannot resolve $upstream $version through the Go module proxy"
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    # kube-router logs its version at start; the build date is the release's publication time, so a rebuild
    # produces the same binary.
    (cd "$module" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X $upstream/pkg/version.Version=$version -X $upstream/pkg/version.BuildDate=$released" \
      -o "$dir.partial/kube-router" .) || die "building kube-router $version failed; see the Go output above"
    local src
    src="$(cd "$module" && go list -m -f '{{.Dir}}' "$upstream")" || src=""
    [[ -f "$src/LICENSE" ]] || die "cannot find kube-router $version's LICENSE in the Go module cache (looked in '$src')"
    cp "$src/LICENSE" "$dir.partial/LICENSE" && chmod u+w "$dir.partial/LICENSE"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_KUBE_ROUTER "$dir/kube-router"
}
