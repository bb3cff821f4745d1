#!/usr/bin/env bash
# Copies the generated BenchmarkRun CRD (crds/, written by the operator build from the Java API classes)
# into the chart, which templates it behind crds.enabled / crds.keep. ChartCrdSyncTest fails when the two
# differ, so run this after changing the API classes and rebuilding:
#
#   charts/stackbench/sync-crds.sh
set -euo pipefail
chart="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$chart/../.." && pwd)"
mkdir -p "$chart/files/crds"
for crd in "$root"/crds/*.yml; do
  cp "$crd" "$chart/files/crds/$(basename "$crd")"
  echo "synced $(basename "$crd")"
done
