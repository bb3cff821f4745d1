#!/usr/bin/env bash
# Regenerates the BenchmarkRun and BenchmarkComparison CRDs from the Java API (core/src/main/java/dev/stackbench/api) with fabric8's
# crd-generator and writes crds/, the committed copy the build compares against (CrdDriftTest, which also puts the
# printer columns in declaration order). Then refreshes the chart's copy. Never edit crds/ by hand.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mvn_run -q -pl core -am test -Dtest=CrdDriftTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dstackbench.updateCrds=true
# The chart ships its own copy of the CRDs; keep it in step when the chart is there.
sync="$STACKBENCH_ROOT/charts/stackbench/sync-crds.sh"
if [[ -x "$sync" ]]; then
  "$sync"
fi
log "updated crds/ (BenchmarkRun and BenchmarkComparison, and the chart's copies); commit them with the API change"
