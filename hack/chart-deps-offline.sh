#!/usr/bin/env bash
# Fills charts/stackbench/charts/ with the real dependency charts so that helm lints, renders and installs the
# chart with no internet access: the k6-operator chart hack/setup.sh packaged from its source archive, and
# kube-prometheus-stack and Bitnami PostgreSQL from the charts in ../shared/third-party/charts, unpacked with the
# charts they depend on in their own charts/ folders (kube-state-metrics, prometheus-node-exporter, grafana and
# prometheus-windows-exporter for the first, Bitnami's common library for the second). Helm refuses a chart
# whose declared dependencies are missing from charts/, even when they are switched off.
# With internet access `helm dependency build charts/stackbench` fetches the same versions instead.
# STACKBENCH_THIRD_PARTY_CHARTS overrides where the packaged third-party charts are.
#
#   hack/chart-deps-offline.sh [CHART_DIR]   prepare CHART_DIR/charts/ (default charts/stackbench); the
#                                            dependencies are replaced each time, so a version bump takes effect
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

chart="${1:-$STACKBENCH_ROOT/charts/stackbench}"
[[ -f "$chart/Chart.yaml" ]] || die "'$chart' is not a chart directory (no Chart.yaml): name charts/stackbench or a copy of it"
third_party="${STACKBENCH_THIRD_PARTY_CHARTS:-$STACKBENCH_ROOT/../shared/third-party/charts}"
[[ -n "${STACKBENCH_K6_OPERATOR_CHART:-}" ]] || { [[ -f "$STACKBENCH_TOOLS/env.sh" ]] && source "$STACKBENCH_TOOLS/env.sh"; }
[[ -f "${STACKBENCH_K6_OPERATOR_CHART:-}" ]] \
  || die "the packaged k6-operator chart is missing ('${STACKBENCH_K6_OPERATOR_CHART:-}'): run hack/setup.sh k6-operator first"
mkdir -p "$chart/charts"

# third_party_chart NAME VERSION: sets packaged to the path of a packaged third-party chart, or fails saying where
# to get it.
third_party_chart() {
  [[ -d "$third_party" ]] || die "the third-party charts directory '$third_party' is missing: it holds the \
kube-prometheus-stack and Bitnami PostgreSQL charts (and the charts they depend on) as .tgz files; copy it from \
../shared/third-party/charts or set STACKBENCH_THIRD_PARTY_CHARTS to such a directory, then re-run \
hack/chart-deps-offline.sh"
  packaged="$third_party/$1-$2.tgz"
  [[ -f "$packaged" ]] || die "the $1 $2 chart is missing at '$packaged'. On a machine with internet access, \
download it with \`helm pull\` from the repository the Chart.yaml that declares it names (charts/stackbench's or \
its parent dependency's), e.g. \`helm pull <repository>/$1 --version $2\`, and put the .tgz there, or set \
STACKBENCH_THIRD_PARTY_CHARTS to the directory holding it, then re-run hack/chart-deps-offline.sh"
}

# dependencies CHART_YAML: "name version" per dependency, as that Chart.yaml declares them.
dependencies() {
  awk '
    /^dependencies:/ { in_deps = 1; next }
    in_deps && /^[^ #-]/ { in_deps = 0 }
    in_deps && $1 == "-" && $2 == "name:" { name = $3 }
    in_deps && $1 == "name:" { name = $2 }
    in_deps && $1 == "-" && $2 == "version:" { gsub(/"/, "", $3); print name, $3 }
    in_deps && $1 == "version:" { gsub(/"/, "", $2); print name, $2 }
  ' "$1"
}

# unpack_with_dependencies NAME VERSION: unpacks the third-party chart into charts/NAME and puts each chart it
# declares (other than those it carries) into its own charts/. A version range (0.12.*) takes the one version
# of that chart in the third-party directory.
unpack_with_dependencies() {
  local name="$1" version="$2" target="$chart/charts/$1" sub sub_version candidates packaged
  third_party_chart "$name" "$version"
  rm -rf "$target" "$chart/charts/$name"-*.tgz
  tar -xzf "$packaged" -C "$chart/charts" \
    || die "cannot unpack the $name $version chart from $third_party; check that it is a chart .tgz"
  [[ -f "$target/Chart.yaml" ]] || die "the $name $version chart from $third_party has no $name/Chart.yaml"
  while read -r sub sub_version; do
    [[ -f "$target/charts/$sub/Chart.yaml" ]] && continue
    if [[ "$sub_version" == *[*xX^~\ ]* ]]; then
      candidates=("$third_party/$sub"-[0-9]*.tgz)
      [[ -f "${candidates[0]}" && ${#candidates[@]} == 1 ]] \
        || die "the $name chart wants $sub $sub_version: put exactly one $sub-<version>.tgz into $third_party"
      mkdir -p "$target/charts" && cp "${candidates[0]}" "$target/charts/"
    else
      third_party_chart "$sub" "$sub_version"
      mkdir -p "$target/charts" && cp "$packaged" "$target/charts/"
    fi
  done < <(dependencies "$target/Chart.yaml")
  log "$name $version: the real chart from $third_party, with $(cd "$target/charts" && ls | tr '\n' ' ')"
}

while read -r name version; do
  case "$name" in
    k6-operator)
      expected="k6-operator-$version.tgz"
      [[ "$(basename "$STACKBENCH_K6_OPERATOR_CHART")" == "$expected" ]] \
        || die "Chart.yaml wants $expected but hack/setup.sh packaged $(basename "$STACKBENCH_K6_OPERATOR_CHART")"
      cp "$STACKBENCH_K6_OPERATOR_CHART" "$chart/charts/$expected"
      log "k6-operator $version: the chart packaged from its source"
      ;;
    *) unpack_with_dependencies "$name" "$version" ;;
  esac
done < <(dependencies "$chart/Chart.yaml")
