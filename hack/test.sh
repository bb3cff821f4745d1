#!/usr/bin/env bash
# Runs every test: installs the tools (idempotent), the Go tests of k6's stackbench output, then the Maven build with unit tests (*Test) and
# integration tests (*IT, *E2E) against real PostgreSQL, real JVMs, real k6 and a real Kubernetes control plane.
#
#   hack/test.sh                 everything
#   hack/test.sh -pl operator    extra arguments go to one Maven build of everything they select, as before
#
# Without arguments, in two phases:
#   1. every module built, unit-tested and installed into the local Maven repository (with the images), two modules
#      at a time where the order allows; no integration test yet;
#   2. the integration tests of the operator (its two test JVMs) and those of local-postgres, the targets' contract and
#      local mode (one JVM at a time) in two Maven builds side by side. What they may do at the same time is decided by
#      the machine's locks (dev.stackbench.testsupport.MachineTurn): tests that judge figures have the machine quiet,
#      the rest share it. Their lines carry [operator] and [local]; target/machine/test-timeline.txt says what ran
#      when in every test JVM.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$STACKBENCH_ROOT/hack/setup.sh"
# shellcheck source=/dev/null
source "$STACKBENCH_TOOLS/env.sh"
# The Go tests of k6's stackbench output (hack/k6), with the module cache hack/setup.sh k6 filled.
(cd "$STACKBENCH_ROOT/hack/k6" && go vet ./... && go test ./...) \
  || die "the Go tests of hack/k6 failed (their output is above); fix them, then run hack/test.sh again"

if (($#)); then
  mvn_run verify -T 2 "$@"
  exit
fi

# A timeline of this build's test JVMs only.
rm -f "$STACKBENCH_ROOT/target/machine/test-timeline.txt"
mvn_run install -T 2 -Dit.test=none -Dfailsafe.failIfNoSpecifiedTests=false

# integration_tests LABEL MODULES: one Maven build of MODULES that runs only their integration tests (the unit tests
# ran in phase 1), each line prefixed with [LABEL].
integration_tests() {
  local label="$1" modules="$2"
  mvn_run verify -pl "$modules" -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false 2>&1 \
    | sed -u "s/^/[$label] /"
  return "${PIPESTATUS[0]}"
}
# Each build in a process group of its own, so that it can be ended whole.
set -m
integration_tests operator operator &
operator_pid=$!
integration_tests local targets/local-postgres,targets/contract-tests,local &
local_pid=$!
# Ctrl-C or a kill of this script ends both builds (their test JVMs take their clusters down on the way).
trap 'kill -- -"$operator_pid" -"$local_pid" 2>/dev/null || true' INT TERM
failed=()
wait "$operator_pid" || failed+=("the operator's (lines [operator])")
wait "$local_pid" || failed+=("local mode's, the contract's or local-postgres's (lines [local])")
trap - INT TERM
set +m
((${#failed[@]} == 0)) \
  || die "integration tests failed: ${failed[*]}; their reports are above and in each module's target/failsafe-reports"
log "all tests passed; where the minutes went: target/machine/test-timeline.txt"
