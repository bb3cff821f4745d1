#!/usr/bin/env bash
# Runs every test: installs the tools (idempotent), then the Maven build with unit tests (*Test) and
# integration tests (*IT) against real PostgreSQL, real JVMs, real k6 and a real Kubernetes control plane.
#
#   hack/test.sh                 everything
#   hack/test.sh -pl operator    extra arguments go to Maven
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$STACKBENCH_ROOT/hack/setup.sh"
# shellcheck source=/dev/null
source "$STACKBENCH_TOOLS/env.sh"
mvn_run verify "$@"
