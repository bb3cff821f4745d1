#!/usr/bin/env bash
# Regenerates the BenchmarkRun CRD from the Java API (operator/src/main/java/dev/stackbench/api) with fabric8's
# crd-generator and copies it to crds/, the committed copy the build compares against. Never edit crds/ by hand.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

generated="$STACKBENCH_ROOT/operator/target/classes/META-INF/fabric8/benchmarkruns.stackbench.dev-v1.yml"
mvn_run -q -pl operator -am process-classes
[[ -f "$generated" ]] || die "the build did not generate $generated; check the crd-generator-maven-plugin in operator/pom.xml"
mkdir -p "$STACKBENCH_ROOT/crds"
cp "$generated" "$STACKBENCH_ROOT/crds/benchmarkruns.stackbench.dev-v1.yml"
# The chart ships its own copy of the CRDs; keep it in step when the chart is there.
sync="$STACKBENCH_ROOT/charts/stackbench/sync-crds.sh"
if [[ -x "$sync" ]]; then
  "$sync"
fi
log "updated crds/benchmarkruns.stackbench.dev-v1.yml (and the chart's copy); commit them with the API change"
