#!/usr/bin/env bash
# Loads image tarballs built by hack/images.sh into the nodes of a kind cluster, so pods can use them
# without a registry (the chart and the operator use imagePullPolicy IfNotPresent).
#
#   hack/kind-load.sh                       load all four image tars into the cluster "stackbench"
#   hack/kind-load.sh --name my-cluster     another cluster
#   hack/kind-load.sh path/to/image.tar...  only these tars
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$STACKBENCH_ROOT"

cluster="stackbench"
tars=()
while (( $# > 0 )); do
  case "$1" in
    --name) cluster="${2:?--name needs the kind cluster name}"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) tars+=("$1"); shift ;;
  esac
done
if (( ${#tars[@]} == 0 )); then
  tars=(operator/target/images/operator.tar targets/mvc-app/target/images/mvc-app.tar
        targets/webflux-app/target/images/webflux-app.tar targets/delay-service/target/images/delay-service.tar)
fi

command -v kind >/dev/null 2>&1 || die "kind is not installed: see https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
kind get clusters 2>/dev/null | grep -qx "$cluster" \
  || die "no kind cluster named '$cluster'; create it: kind create cluster --config examples/kind/cluster.yaml"
for tar in "${tars[@]}"; do
  [[ -f "$tar" ]] || die "$tar does not exist; build the images first: hack/images.sh"
  log "loading $tar into kind cluster $cluster"
  kind load image-archive "$tar" --name "$cluster" || die "kind load image-archive $tar failed; see the output above"
done
