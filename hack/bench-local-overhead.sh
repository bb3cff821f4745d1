#!/usr/bin/env bash
# Benchmark (not a test): what a local repetition costs beyond its warmup and measured window.
#
#   hack/bench-local-overhead.sh [REPETITIONS] [-- extra ./stackbench run options]
#
# Runs ./stackbench run --repetitions REPETITIONS (default 3) over two short BenchmarkRuns (webflux-r2dbc against a
# 20 ms and a 150 ms upstream, 2 s warmup + 5 s measured, 10 requests/s), so 2 x REPETITIONS runs, and reports the
# wall time and the overhead per run: (wall time - runs x (warmup + duration)) / runs. Tools and jars must be built
# (./stackbench builds missing jars first; that time is not counted: the jars are built before the clock starts).
# Take it on an idle machine: the load average before and after is part of the result.
#
# Writes results/bench-local-overhead-<time>.txt (and the comparison's own results directory beside it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$STACKBENCH_ROOT"

repetitions="${1:-3}"
[[ "$repetitions" =~ ^[0-9]+$ && "$repetitions" -ge 3 ]] \
  || die "REPETITIONS must be a whole number of 3 or more (got '$repetitions')"
shift || true
[[ "${1:-}" == "--" ]] && shift

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
work="results/bench-local-overhead-$stamp"
mkdir -p "$work"
for pair in "fast 20ms" "slow 150ms"; do
  set -- $pair "$@"
  cat > "$work/$1.yaml" <<EOF
apiVersion: stackbench.dev/v1alpha1
kind: BenchmarkRun
metadata:
  name: $1
spec:
  target:
    variant: webflux-r2dbc
    resources: {cpu: "1", memory: 512Mi}
  workload:
    scenario: upstream
    upstreamDelay: $2
    load: {executor: constant-arrival-rate, rate: 10, vus: 20}
    warmup: 2s
    duration: 5s
EOF
  shift 2
done
window_seconds=7
runs=$((2 * repetitions))

# Builds missing jars and installs tools before the clock starts.
./stackbench run --help >/dev/null
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start="$(date +%s.%N)"
./stackbench run --results-dir "$work/results" --repetitions "$repetitions" --seed 1 "$@" \
  "$work/fast.yaml" "$work/slow.yaml" > "$work/stdout.txt" 2> "$work/stderr.txt" \
  || die "the comparison failed: see $work/stderr.txt"
end="$(date +%s.%N)"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

report="results/bench-local-overhead-$stamp.txt"
python3 - "$start" "$end" "$runs" "$window_seconds" "$load_before" "$load_after" "$(git rev-parse --short HEAD)" \
  > "$report" <<'EOF'
import sys
start, end, runs, window = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
wall = end - start
print(f"commit {sys.argv[7]}: {runs} local runs of {window} s (2 s warmup + 5 s measured)")
print(f"wall time {wall:.1f} s; overhead per run {(wall - runs * window) / runs:.1f} s")
print(f"load average before {sys.argv[5]}, after {sys.argv[6]}")
EOF
grep -h "shared between repetitions" "$work/stderr.txt" | head -1 >> "$report" || true
cat "$report"
log "written to $report (runs in $work/results)"
