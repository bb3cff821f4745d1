# grafana/k6-operator: the controller that turns a TestRun into k6 initializer, runner and starter Jobs.
# The Go module proxy refuses github.com/grafana/k6-operator, so it is built from its source archive (the
# modules it needs do come from the proxy), and its Helm chart is packaged into a local chart repository that
# the chart tests and offline installs use instead of https://grafana.github.io/helm-charts.
# STACKBENCH_K6_OPERATOR_SOURCE overrides where the archive is.
install_k6_operator() {
  local dir="$STACKBENCH_TOOLS/k6-operator-$K6_OPERATOR_VERSION"
  local archive="${STACKBENCH_K6_OPERATOR_SOURCE:-$STACKBENCH_ROOT/../shared/third-party/k6-operator-${K6_OPERATOR_VERSION#v}.tar.gz}"
  # helm packages the chart; installing it here keeps `hack/setup.sh k6-operator` self-contained.
  source "$STACKBENCH_ROOT/hack/install/helm.sh"
  install_helm
  local helm="$STACKBENCH_TOOLS/helm-$HELM_VERSION/helm"
  if [[ ! -x "$dir/manager" || ! -f "$dir/chart-repo/index.yaml" ]]; then
    [[ -f "$archive" ]] || die "the k6-operator $K6_OPERATOR_VERSION source archive is missing at '$archive'. \
The Go module proxy does not serve github.com/grafana/k6-operator, so it is built from its source: download \
https://github.com/grafana/k6-operator/archive/refs/tags/$K6_OPERATOR_VERSION.tar.gz on a machine with internet \
access and put it there, or set STACKBENCH_K6_OPERATOR_SOURCE to its path, then re-run hack/setup.sh k6-operator"
    command -v go >/dev/null 2>&1 || die "Go is needed to build k6-operator $K6_OPERATOR_VERSION: install Go 1.26 or newer and re-run hack/setup.sh"
    log "building k6-operator $K6_OPERATOR_VERSION from $archive (a few minutes on a cold cache)..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial/src" "$dir.partial/chart-repo"
    tar -xzf "$archive" -C "$dir.partial/src" --strip-components=1 \
      || die "cannot unpack '$archive'; check that it is a .tar.gz of the k6-operator source tree"
    local src="$dir.partial/src"
    [[ -f "$src/go.mod" && -d "$src/cmd" && -f "$src/charts/k6-operator/Chart.yaml" ]] \
      || die "'$archive' does not look like k6-operator's source: go.mod, cmd/ or charts/k6-operator/Chart.yaml is missing"
    # k6-operator has no version variable to stamp; its release build is a plain static `go build`.
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags '-s -w' -o "$dir.partial/manager" ./cmd/) \
      || die "building the k6-operator controller failed; see the Go output above"
    "$helm" package "$src/charts/k6-operator" --destination "$dir.partial/chart-repo" >/dev/null \
      || die "helm package of the k6-operator chart failed; see the helm output above"
    "$helm" repo index "$dir.partial/chart-repo" || die "helm repo index of '$dir.partial/chart-repo' failed"
    cp "$src/LICENSE" "$dir.partial/LICENSE"
    chmod -R u+w "$src" && rm -rf "$src"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  local chart
  chart="$(ls "$dir"/chart-repo/k6-operator-*.tgz 2>/dev/null | head -1)"
  [[ -n "$chart" ]] || die "no packaged k6-operator chart in $dir/chart-repo: delete $dir and re-run hack/setup.sh k6-operator"
  provide STACKBENCH_K6_OPERATOR "$dir/manager"
  provide STACKBENCH_K6_OPERATOR_CHART "$chart"
  provide STACKBENCH_K6_OPERATOR_CHART_REPO "$dir/chart-repo"
}
