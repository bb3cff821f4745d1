#!/usr/bin/env bash
# Shared helpers for hack/ scripts. Source it; it defines functions and never exits the caller's shell
# on its own except through `die`.

STACKBENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export STACKBENCH_ROOT
# Tools live in a git-ignored directory, one sub-directory per tool and pinned version, so a version
# bump never reuses a stale binary and a second setup run only checks that files exist.
STACKBENCH_TOOLS="${STACKBENCH_TOOLS:-$STACKBENCH_ROOT/.tools}"
export STACKBENCH_TOOLS

# Pinned versions of everything hack/setup.sh installs.
K6_VERSION="v1.8.1"
export K6_VERSION
# grafana/k6-operator, built from the source archive in ../shared/third-party/ (hack/install/k6-operator.sh).
K6_OPERATOR_VERSION="v1.6.0"
export K6_OPERATOR_VERSION
# The monitoring stack kube-prometheus-stack runs, built from the source archives in ../shared/third-party/
# (hack/install/prometheus-stack.sh): prometheus-operator with its config reloader, and Prometheus.
PROMETHEUS_OPERATOR_VERSION="v0.93.0"
export PROMETHEUS_OPERATOR_VERSION
PROMETHEUS_VERSION="v3.14.0"
export PROMETHEUS_VERSION
# The PostgreSQL exporter beside each run's own database, built from the Go module proxy
# (hack/install/prometheus-stack.sh).
POSTGRES_EXPORTER_VERSION="v0.17.1"
export POSTGRES_EXPORTER_VERSION

MIN_JAVA=21

log() { printf '[stackbench] %s\n' "$*" >&2; }
die() { printf '[stackbench] error: %s\n' "$*" >&2; exit 1; }

java_major() {
  # Prints the major version of the given java binary, or nothing if it does not run.
  local v
  v="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1)"
  printf '%s' "${v#1.}"
}

# Picks a JDK >= MIN_JAVA: $JAVA_HOME if suitable, else `java` on PATH, else the newest under /usr/lib/jvm.
# Exports JAVA_HOME and puts it first on PATH.
select_jdk() {
  local candidates=() c best="" best_major=0 major
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do [[ -d "$c" ]] && candidates+=("$c"); done
  for c in "${candidates[@]}"; do
    [[ -x "$c/bin/java" && -x "$c/bin/javac" ]] || continue
    major="$(java_major "$c/bin/java")"
    [[ "$major" =~ ^[0-9]+$ ]] || continue
    if (( major >= MIN_JAVA )); then
      # The first suitable candidate wins, so an explicit JAVA_HOME is respected.
      best="$c"; best_major="$major"; break
    fi
  done
  if [[ -z "$best" ]]; then
    die "no JDK ${MIN_JAVA} or newer found (looked at \$JAVA_HOME, java on PATH and /usr/lib/jvm/*). \
Install one (for example: apt-get install openjdk-21-jdk-headless, or a Temurin 21/25 JDK) and set JAVA_HOME to it."
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
  STACKBENCH_JAVA_MAJOR="$best_major"
  export STACKBENCH_JAVA_MAJOR
}

# Runs Maven with the selected JDK, in batch mode, quiet about download progress.
mvn_run() {
  select_jdk
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is not installed: apt-get install maven"
  (cd "$STACKBENCH_ROOT" && mvn -B -ntp "$@")
}
