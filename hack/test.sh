#!/usr/bin/env bash
# Runs every test: installs the tools (idempotent), the Go tests of k6's stackbench output, then the Maven build with unit tests (*Test) and
# integration tests (*IT) against real PostgreSQL, real JVMs, real k6 and a real Kubernetes control plane.
#
#   hack/test.sh                 everything
#   hack/test.sh -pl operator    extra arguments go to Maven
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$STACKBENCH_ROOT/hack/setup.sh"
# shellcheck source=/dev/null
source "$STACKBENCH_TOOLS/env.sh"
# The Go tests of k6's stackbench output (hack/k6), with the module cache hack/setup.sh k6 filled.
(cd "$STACKBENCH_ROOT/hack/k6" && go vet ./... && go test ./...) \
  || die "the Go tests of hack/k6 failed (their output is above); fix them, then run hack/test.sh again"
# Two modules at a time where the order allows: the apps and core build side by side. The modules whose tests judge
# figures (local, operator) come after every other module (local's build-order dependency on the contract tests).
mvn_run verify -T 2 "$@"
