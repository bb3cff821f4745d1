# kube-apiserver, kube-controller-manager, kube-scheduler and kubectl for the test control plane, and
# kubelet and kube-proxy for its real worker nodes (hack/cluster.sh), built from the Go module proxy.
# k8s.io/kubernetes cannot be installed directly (its go.mod replaces the staging modules with local
# directories); hack/cluster/kube is a wrapper module that pins each staging module to its published
# release and holds our own tiny mains.
# Everything is linked statically (CGO_ENABLED=0). Upstream links kubelet against libc only for the
# host's name-service (DNS, user) lookups; the test nodes resolve nothing through NSS, and a static
# binary runs on any host the tools directory is copied to.
install_kube() {
  local module="$STACKBENCH_ROOT/hack/cluster/kube" version dir cmd
  version="$(awk -v m=k8s.io/kubernetes '/^[[:space:]]*\/\// { next } { for (i = 1; i < NF; i++) if ($i == m) { print $(i + 1); exit } }' "$module/go.mod")"
  [[ "$version" =~ ^v([0-9]+)\.([0-9]+)\.[0-9]+$ ]] || die "cannot read the k8s.io/kubernetes version from $module/go.mod"
  local major="${BASH_REMATCH[1]}" minor="${BASH_REMATCH[2]}"
  dir="$STACKBENCH_TOOLS/kube-$version"
  local commands=(kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet kube-proxy)
  local missing=()
  for cmd in "${commands[@]}"; do [[ -x "$dir/$cmd" ]] || missing+=("$cmd"); done
  if (( ${#missing[@]} > 0 )); then
    command -v go >/dev/null 2>&1 || die "Go is needed to build Kubernetes $version: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building ${missing[*]} $version from the Go module proxy (5-10 minutes on 2 cores with a cold cache)..."
    # Without these the binaries report v0.0.0-master, which kubectl and client libraries cannot
    # compare against their own version. The build date is the release's publication time, so a
    # rebuild produces the same binaries.
    local released ldflags="-s -w" pkg
    released="$(cd "$module" && go list -m -f '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}' k8s.io/kubernetes)" \
      || die "cannot resolve k8s.io/kubernetes $version through the Go module proxy"
    for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ldflags+=" -X $pkg.gitVersion=$version -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
      ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$released"
    done
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    # Commands already built for this version (a directory from before the list grew) are carried
    # over rather than linked again, which takes minutes for these binaries.
    for cmd in "${commands[@]}"; do
      if [[ -x "$dir/$cmd" ]]; then cp -p "$dir/$cmd" "$dir.partial/$cmd" || die "cannot copy $dir/$cmd to $dir.partial"; fi
    done
    (cd "$module" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$dir.partial/" \
      "${missing[@]/#/./cmd/}") || die "building Kubernetes $version failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_KUBE_BIN "$dir"
  provide STACKBENCH_KUBECTL "$dir/kubectl"
}
