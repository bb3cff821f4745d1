#!/usr/bin/env bash
# Fills charts/stackbench/charts/ so that helm installs the chart with no internet access: the real k6-operator
# chart that hack/setup.sh packaged from its source archive, and for each other dependency (Bitnami PostgreSQL,
# kube-prometheus-stack) a placeholder of the same name and version that refuses to render if it is switched on.
# Helm refuses a chart whose declared dependencies are missing from charts/, even when they are switched off.
# With internet access use `helm dependency build charts/stackbench` instead, which fetches the real ones.
#
#   hack/chart-deps-offline.sh            prepare charts/stackbench/charts/ (a dependency already there is kept)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

chart="$STACKBENCH_ROOT/charts/stackbench"
[[ -n "${STACKBENCH_K6_OPERATOR_CHART:-}" ]] || { [[ -f "$STACKBENCH_TOOLS/env.sh" ]] && source "$STACKBENCH_TOOLS/env.sh"; }
[[ -f "${STACKBENCH_K6_OPERATOR_CHART:-}" ]] \
  || die "the packaged k6-operator chart is missing ('${STACKBENCH_K6_OPERATOR_CHART:-}'): run hack/setup.sh k6-operator first"
mkdir -p "$chart/charts"

# name version per dependency, as Chart.yaml declares them
while read -r name version; do
  if [[ "$name" == k6-operator ]]; then
    expected="k6-operator-$version.tgz"
    [[ "$(basename "$STACKBENCH_K6_OPERATOR_CHART")" == "$expected" ]] \
      || die "Chart.yaml wants $expected but hack/setup.sh packaged $(basename "$STACKBENCH_K6_OPERATOR_CHART")"
    cp "$STACKBENCH_K6_OPERATOR_CHART" "$chart/charts/$expected"
    log "k6-operator $version: the chart packaged from its source"
    continue
  fi
  if compgen -G "$chart/charts/$name-*.tgz" >/dev/null || [[ -f "$chart/charts/$name/Chart.yaml" ]]; then
    log "$name: already in charts/, kept"
    continue
  fi
  mkdir -p "$chart/charts/$name/templates"
  printf 'apiVersion: v2\nname: %s\nversion: %s\ndescription: offline placeholder; helm dependency build fetches the real chart\n' \
    "$name" "$version" > "$chart/charts/$name/Chart.yaml"
  printf '{{- fail "%s is an offline placeholder (hack/chart-deps-offline.sh): switch it off, or fetch the real chart with helm dependency build charts/stackbench" }}\n' \
    "$name" > "$chart/charts/$name/templates/placeholder.yaml"
  log "$name $version: offline placeholder (fails if switched on)"
done < <(awk '
  /^dependencies:/ { in_deps = 1; next }
  in_deps && /^[^ #-]/ { in_deps = 0 }
  in_deps && $1 == "-" && $2 == "name:" { name = $3 }
  in_deps && $1 == "name:" { name = $2 }
  in_deps && $1 == "version:" { gsub(/"/, "", $2); print name, $2 }
' "$chart/Chart.yaml")
