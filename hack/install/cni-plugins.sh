# The CNI plugins containerd calls to give pods on the real worker nodes of the test cluster
# (hack/cluster.sh) their network: bridge (a Linux bridge per node, veth per pod), host-local (pod IPs
# from the node's range), loopback (lo inside each pod) and portmap (hostPort). Built from the Go
# module proxy; the plugins module has no replace directives, so `go install` takes it directly.
CNI_PLUGINS_VERSION="v1.9.1"
CNI_PLUGINS=(main/bridge ipam/host-local main/loopback meta/portmap)

install_cni_plugins() {
  local dir="$STACKBENCH_TOOLS/cni-plugins-$CNI_PLUGINS_VERSION" plugin ready=1
  local module=github.com/containernetworking/plugins
  for plugin in "${CNI_PLUGINS[@]}"; do [[ -x "$dir/${plugin##*/}" ]] || ready=""; done
  if [[ -z "$ready" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build the CNI plugins $CNI_PLUGINS_VERSION: install Go 1.24 or newer and re-run hack/setup.sh"
    log "building the CNI plugins $CNI_PLUGINS_VERSION from the Go module proxy (a minute or two on a cold cache)..."
    local packages=()
    for plugin in "${CNI_PLUGINS[@]}"; do packages+=("$module/plugins/$plugin@$CNI_PLUGINS_VERSION"); done
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    # The version stamp is what `CNI_COMMAND=VERSION plugin` and the plugins' logs report; without it
    # they say "version unknown".
    GOBIN="$dir.partial" CGO_ENABLED=0 go install -trimpath -buildvcs=false \
      -ldflags "-s -w -X $module/pkg/utils/buildversion.BuildVersion=$CNI_PLUGINS_VERSION" "${packages[@]}" \
      || die "building the CNI plugins failed; see the Go output above"
    # Apache-2.0, like the binaries built from it.
    local src
    src="$(go mod download -json "$module@$CNI_PLUGINS_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [[ -f "$src/LICENSE" ]] || die "the CNI plugins module $CNI_PLUGINS_VERSION has no LICENSE file (looked in '$src')"
    cp "$src/LICENSE" "$dir.partial/LICENSE" && chmod u+w "$dir.partial/LICENSE"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_CNI_BIN "$dir"
}
