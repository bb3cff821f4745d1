# The monitoring stack the chart's kube-prometheus-stack dependency runs: prometheus-operator, its
# prometheus-config-reloader and Prometheus itself. None of the three installs with `go install` (the operator's
# module has replace directives, Prometheus' go.work names directories of its own tree), so each is built inside
# its unpacked source archive, with the modules it needs from the Go module proxy. Plus postgres_exporter, which
# runs beside each run's own database: its source comes from the module proxy itself.
# STACKBENCH_PROMETHEUS_OPERATOR_SOURCE and STACKBENCH_PROMETHEUS_SOURCE override where the archives are.

# build_prometheus_component NAME VERSION ARCHIVE MARKER OVERRIDE_VAR OUT_DIR PACKAGE...: unpacks ARCHIVE (the
# source of NAME, recognised by its file MARKER), builds each PACKAGE (./cmd/x) into OUT_DIR/x with the version
# stamped where `--version` reads it, and copies the LICENSE beside the binaries. Go build tags from $build_tags.
build_prometheus_component() {
  local name="$1" version="$2" archive="$3" marker="$4" override="$5" out="$6"
  shift 6
  [[ -f "$archive" ]] || die "the $name $version source archive is missing at '$archive'. It is built from its \
source: download https://github.com/$name/archive/refs/tags/$version.tar.gz on a machine with internet access and put \
it there, or set $override to its path, then re-run hack/setup.sh prometheus-stack"
  command -v go >/dev/null 2>&1 || die "Go is needed to build $name $version: install Go 1.26 or newer and re-run hack/setup.sh"
  local src="$out/src-${name##*/}"
  rm -rf "$src" && mkdir -p "$src"
  tar -xzf "$archive" -C "$src" --strip-components=1 \
    || die "cannot unpack '$archive'; check that it is a .tar.gz of the $name source tree"
  [[ -f "$src/go.mod" && -e "$src/$marker" ]] \
    || die "'$archive' does not look like $name's source: go.mod or $marker is missing"
  local common=github.com/prometheus/common/version
  local ldflags="-s -w -X $common.Version=${version#v} -X $common.Branch=HEAD -X $common.BuildUser=stackbench"
  local pkg
  for pkg in "$@"; do
    log "building ${pkg##*/} $version from $archive (minutes on a cold module cache)..."
    local started=$SECONDS
    # GOWORK=off: Prometheus' go.work names directories its archive leaves out; the operator has none.
    (cd "$src" && GOWORK=off CGO_ENABLED=0 go build -tags "${build_tags:-}" -trimpath -buildvcs=false -ldflags "$ldflags" \
      -o "$out/${pkg##*/}" "$pkg") || die "building ${pkg##*/} $version failed; see the Go output above"
    log "built ${pkg##*/} $version in $((SECONDS - started))s"
  done
  cp "$src/LICENSE" "$out/LICENSE-${name##*/}"
  chmod -R u+w "$src" && rm -rf "$src"
}

# build_postgres_exporter OUT_DIR: postgres_exporter $POSTGRES_EXPORTER_VERSION from the Go module proxy. `go install
# pkg@version` would first ask the proxy for the module's version list, which it does not serve; downloading the one
# version and building inside a writable copy of it needs no list.
build_postgres_exporter() {
  local out="$1" module=github.com/prometheus-community/postgres_exporter
  command -v go >/dev/null 2>&1 || die "Go is needed to build postgres_exporter: install Go 1.24 or newer and re-run hack/setup.sh"
  log "building postgres_exporter $POSTGRES_EXPORTER_VERSION from the Go module proxy..."
  local dir
  dir="$(go mod download -json "$module@$POSTGRES_EXPORTER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" \
    && [[ -d "$dir" ]] || die "the Go module proxy did not serve $module@$POSTGRES_EXPORTER_VERSION; see the Go output above"
  local src="$out/src-postgres_exporter"
  rm -rf "$src" && cp -r "$dir" "$src" && chmod -R u+w "$src"
  local common=github.com/prometheus/common/version
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
    -ldflags "-s -w -X $common.Version=${POSTGRES_EXPORTER_VERSION#v} -X $common.Branch=HEAD -X $common.BuildUser=stackbench" \
    -o "$out/postgres_exporter" ./cmd/postgres_exporter) || die "building postgres_exporter failed; see the Go output above"
  cp "$src/LICENSE" "$out/LICENSE-postgres_exporter"
  rm -rf "$src"
}

install_prometheus_stack() {
  local third_party="$STACKBENCH_ROOT/../shared/third-party"
  local operator_dir="$STACKBENCH_TOOLS/prometheus-operator-$PROMETHEUS_OPERATOR_VERSION"
  local prometheus_dir="$STACKBENCH_TOOLS/prometheus-$PROMETHEUS_VERSION"
  if [[ ! -x "$operator_dir/operator" || ! -x "$operator_dir/prometheus-config-reloader" ]]; then
    rm -rf "$operator_dir.partial" && mkdir -p "$operator_dir.partial"
    build_prometheus_component prometheus-operator/prometheus-operator "$PROMETHEUS_OPERATOR_VERSION" \
      "${STACKBENCH_PROMETHEUS_OPERATOR_SOURCE:-$third_party/prometheus-operator-${PROMETHEUS_OPERATOR_VERSION#v}.tar.gz}" \
      cmd/operator STACKBENCH_PROMETHEUS_OPERATOR_SOURCE "$operator_dir.partial" ./cmd/operator ./cmd/prometheus-config-reloader
    rm -rf "$operator_dir" && mv "$operator_dir.partial" "$operator_dir"
  fi
  if [[ ! -x "$prometheus_dir/prometheus" ]]; then
    rm -rf "$prometheus_dir.partial" && mkdir -p "$prometheus_dir.partial"
    # Kubernetes service discovery only (and Prometheus' file and HTTP ones, always in): prometheus-operator
    # configures nothing else, and the clouds' discoveries (their SDKs) are most of a cold build.
    build_tags="remove_all_sd,enable_kubernetes_sd" build_prometheus_component prometheus/prometheus "$PROMETHEUS_VERSION" \
      "${STACKBENCH_PROMETHEUS_SOURCE:-$third_party/prometheus-${PROMETHEUS_VERSION#v}.tar.gz}" \
      cmd/prometheus STACKBENCH_PROMETHEUS_SOURCE "$prometheus_dir.partial" ./cmd/prometheus
    rm -rf "$prometheus_dir" && mv "$prometheus_dir.partial" "$prometheus_dir"
  fi
  local exporter_dir="$STACKBENCH_TOOLS/postgres-exporter-$POSTGRES_EXPORTER_VERSION"
  if [[ ! -x "$exporter_dir/postgres_exporter" ]]; then
    rm -rf "$exporter_dir.partial" && mkdir -p "$exporter_dir.partial"
    build_postgres_exporter "$exporter_dir.partial"
    rm -rf "$exporter_dir" && mv "$exporter_dir.partial" "$exporter_dir"
  fi
  provide STACKBENCH_PROMETHEUS_OPERATOR "$operator_dir/operator"
  provide STACKBENCH_PROMETHEUS_CONFIG_RELOADER "$operator_dir/prometheus-config-reloader"
  provide STACKBENCH_PROMETHEUS "$prometheus_dir/prometheus"
  provide STACKBENCH_POSTGRES_EXPORTER "$exporter_dir/postgres_exporter"
}
