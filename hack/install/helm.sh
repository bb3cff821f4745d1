# helm, for chart lint/template/install tests against the test control plane (hack/cluster.sh).
HELM_VERSION="v3.22.0"

install_helm() {
  local dir="$STACKBENCH_TOOLS/helm-$HELM_VERSION"
  if [[ ! -x "$dir/helm" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build helm $HELM_VERSION: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building helm $HELM_VERSION from the Go module proxy (a few minutes on a cold cache)..."
    # helm's release build stamps its own version and the Kubernetes version it was built against
    # (the default for `helm template` and `helm lint`, else v1.20); a module build must do the same.
    local gomod k8s_minor pkg="helm.sh/helm/v3"
    gomod="$(go mod download -json "$pkg@$HELM_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
    k8s_minor="$(sed -n 's/^[[:space:]]*k8s\.io\/client-go v0\.\([0-9]*\)\..*/\1/p' "$gomod" | head -1)"
    [[ -n "$k8s_minor" ]] || die "cannot read the client-go version of helm $HELM_VERSION from '$gomod'"
    local ldflags="-s -w -X $pkg/internal/version.version=$HELM_VERSION -X $pkg/internal/version.gitTreeState=clean"
    ldflags+=" -X $pkg/pkg/lint/rules.k8sVersionMajor=1 -X $pkg/pkg/lint/rules.k8sVersionMinor=$k8s_minor"
    ldflags+=" -X $pkg/pkg/chartutil.k8sVersionMajor=1 -X $pkg/pkg/chartutil.k8sVersionMinor=$k8s_minor"
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    GOBIN="$dir.partial" CGO_ENABLED=0 go install -trimpath -buildvcs=false -ldflags "$ldflags" \
      "$pkg/cmd/helm@$HELM_VERSION" || die "building helm failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_HELM "$dir/helm"
}
