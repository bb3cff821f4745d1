# kubeconform (offline Kubernetes manifest validation for the chart tests) and the Kubernetes JSON schemas
# it validates against, taken from PyPI's kubernetes-validate wheel because no schema site is reachable.
KUBECONFORM_VERSION="v0.8.0"
KUBERNETES_VALIDATE_VERSION="1.37.0"
# The schemas of the Kubernetes minor the test control plane runs (hack/cluster/kube/go.mod).
KUBERNETES_SCHEMA_VERSION="v1.36.0"
# ServiceMonitor and friends (the chart's kube-prometheus-stack integration), from the module proxy.
PROMETHEUS_OPERATOR_VERSION="v0.85.0"

install_kubeconform() {
  local dir="$STACKBENCH_TOOLS/kubeconform-$KUBECONFORM_VERSION"
  if [[ ! -x "$dir/kubeconform" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build kubeconform $KUBECONFORM_VERSION: install Go 1.24 or newer and re-run hack/setup.sh"
    log "building kubeconform $KUBECONFORM_VERSION from the Go module proxy..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    GOBIN="$dir.partial" CGO_ENABLED=0 go install -trimpath -buildvcs=false -ldflags '-s -w' \
      "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" \
      || die "building kubeconform failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_KUBECONFORM "$dir/kubeconform"

  local schemas="$STACKBENCH_TOOLS/kubernetes-schemas-$KUBERNETES_SCHEMA_VERSION-kv$KUBERNETES_VALIDATE_VERSION"
  if [[ ! -f "$schemas/deployment-apps-v1.json" ]]; then
    command -v python3 >/dev/null 2>&1 || die "python3 (with pip) is needed to fetch the Kubernetes JSON schemas"
    log "fetching Kubernetes $KUBERNETES_SCHEMA_VERSION JSON schemas (kubernetes-validate $KUBERNETES_VALIDATE_VERSION from PyPI)..."
    local work
    work="$(mktemp -d)"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$work" \
      "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" \
      || { rm -rf "$work"; die "pip download kubernetes-validate failed; check that PyPI is reachable"; }
    rm -rf "$schemas.partial" && mkdir -p "$schemas.partial"
    # The wheel's schemas point at each other through absolute ids (/api/_definitions.json); kubeconform
    # reads them from disk, so drop each top-level $id and make the references relative to the file.
    python3 - "$work"/kubernetes_validate-*.whl "$KUBERNETES_SCHEMA_VERSION-local-strict" "$schemas.partial" <<'PY' \
      || { rm -rf "$work"; die "unpacking the Kubernetes schemas failed"; }
import json, sys, zipfile
wheel, flavour, out = sys.argv[1:]
prefix = "kubernetes_validate/kubernetes-json-schema/" + flavour + "/"
count = 0
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if not name.startswith(prefix) or not name.endswith(".json"):
            continue
        schema = json.loads(archive.read(name))
        schema.pop("$id", None)
        text = json.dumps(schema).replace('"/api/_definitions.json#', '"_definitions.json#')
        with open(out + "/" + name[len(prefix):], "w") as target:
            target.write(text)
        count += 1
if count == 0:
    sys.exit("no schemas for " + flavour + " in " + wheel)
PY
    rm -rf "$work"
    rm -rf "$schemas" && mv "$schemas.partial" "$schemas"
  fi
  provide STACKBENCH_KUBE_SCHEMAS "$schemas"

  local module_dir
  module_dir="$(cd "$STACKBENCH_TOOLS" && go mod download -json \
    "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" \
    || die "downloading prometheus-operator $PROMETHEUS_OPERATOR_VERSION from the Go module proxy failed"
  [[ -d "$module_dir/example/prometheus-operator-crd" ]] \
    || die "no CRDs in the prometheus-operator module at $module_dir"
  provide STACKBENCH_PROMETHEUS_CRDS "$module_dir/example/prometheus-operator-crd"
}
