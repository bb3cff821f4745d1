# kwok, which fakes the nodes and kubelets of the test control plane (hack/cluster.sh).
# Besides the binary, hack/cluster.sh needs data files that ship in kwok's module (the stock node
# and pod Stages and the Logs/ClusterLogs CRDs); they are copied next to the binary, with kwok's
# licence (Apache-2.0), so the cluster never depends on the state of the Go module cache.
KWOK_VERSION="v0.8.0"

install_kwok() {
  local dir="$STACKBENCH_TOOLS/kwok-$KWOK_VERSION" src
  if [[ ! -x "$dir/kwok" || ! -d "$dir/kustomize" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build kwok $KWOK_VERSION: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building kwok $KWOK_VERSION from the Go module proxy (a few minutes on a cold cache)..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    GOBIN="$dir.partial" CGO_ENABLED=0 go install -trimpath -buildvcs=false -ldflags '-s -w' \
      "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" || die "building kwok failed; see the Go output above"
    src="$(go mod download -json "sigs.k8s.io/kwok@$KWOK_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [[ -d "$src/kustomize/stage" && -d "$src/kustomize/crd/bases" ]] \
      || die "kwok $KWOK_VERSION module has no kustomize/stage or kustomize/crd/bases directory (looked in '$src')"
    mkdir -p "$dir.partial/kustomize"
    cp -R "$src/kustomize/stage" "$src/kustomize/crd" "$dir.partial/kustomize/"
    cp "$src/LICENSE" "$dir.partial/LICENSE"
    chmod -R u+w "$dir.partial"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_KWOK "$dir/kwok"
}
