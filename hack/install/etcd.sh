# etcd, the storage of the test control plane (hack/cluster.sh), built from the Go module proxy.
# etcd's main module uses replace directives, so `go install` refuses it; hack/cluster/etcd is a
# one-file wrapper module whose go.mod/go.sum pin the version and every dependency.
install_etcd() {
  local module="$STACKBENCH_ROOT/hack/cluster/etcd" version dir
  version="$(awk -v m=go.etcd.io/etcd/server/v3 '/^[[:space:]]*\/\// { next } { for (i = 1; i < NF; i++) if ($i == m) { print $(i + 1); exit } }' "$module/go.mod")"
  [[ -n "$version" ]] || die "cannot read the etcd version from $module/go.mod"
  dir="$STACKBENCH_TOOLS/etcd-$version"
  if [[ ! -x "$dir/etcd" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build etcd $version: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building etcd $version from the Go module proxy (about a minute on a cold cache)..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    (cd "$module" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags '-s -w' -o "$dir.partial/etcd" .) \
      || die "building etcd failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_ETCD "$dir/etcd"
}
