#!/usr/bin/env bash
# Benchmark (not a test): the CPU k6 spends per request on the script stackbench generates, next to a plain script.
#
#   hack/bench-k6-cost.sh [ROUNDS]
#
# Against one webflux-r2dbc target (upstream scenario, no upstream delay), runs k6 at RATE requests/s (default 600)
# for DURATION seconds (default 30), pinned to one CPU, ROUNDS times each (default 2, at least 2), alternating:
#   (a) plain: one http.get of the same URL per iteration, the same VU counts, nothing else;
#   (b) runner: the script `./stackbench script` generates for that load, run with the arguments
#       `./stackbench script --k6-args` prints (paused, then resumed through k6's REST API; the stackbench output
#       writing its per-second figures) and the same environment, its metrics read (GET /v1/metrics) every
#       RUNNER_READ seconds (default 5): as a k6-operator runner runs it on a cluster, where the operator reads each
#       runner's metrics once per pass for the run's live progress;
#   (c) local: the same, and followed once a second by local mode's own follower (K6PerSecondTail, which reads
#       the per-second file the stackbench output writes and asks k6 nothing): exactly as local mode runs it;
# and reports each k6 process's CPU-seconds (user + sys, from /usr/bin/time), the requests it sent, CPU-ms per request
# and the ratios b/a and c/a of the mean CPU-ms per request. Since identical runs differ by 10 % or more, it also pairs
# the scripts round by round: the geometric mean of the rounds' ratios with its 95 % confidence interval (Student's t
# on the log ratios, from SciPy), and the one-sided p-value that the ratio is below GOAL (default 1.15). SciPy is
# installed once into a virtual environment under the tools directory (PyPI); take 6 rounds or more for a useful
# interval.
#
# The target comes from `./stackbench run` itself: a BenchmarkRun at 1 request/s that lasts longer than the benchmark
# starts PostgreSQL, the delay service and the target the way local mode does, pins the target to its own CPU and k6
# to the other; this script's k6 processes run on that other CPU too (taskset), one at a time. The run's own k6 sends
# its 1 request/s meanwhile. Everything is stopped on exit, also on failure or Ctrl-C.
# CPU-seconds are far less sensitive to other load than wall time, but not immune (caches, frequency): take it on an
# idle machine; the load average before and after is part of the result.
#
# Writes results/bench-k6-cost-<time>.txt (and the target run's results directory beside it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$STACKBENCH_ROOT"

rounds="${1:-2}"
[[ "$rounds" =~ ^[0-9]+$ && "$rounds" -ge 2 ]] || die "ROUNDS must be a whole number of 2 or more (got '$rounds')"
rate="${RATE:-600}"
duration="${DURATION:-30}"
export RUNNER_READ="${RUNNER_READ:-5}"
runner_read="$RUNNER_READ"
[[ "$runner_read" =~ ^[0-9]+$ && "$runner_read" -ge 1 ]] || die "RUNNER_READ must be a whole number of seconds, 1 or more"
[[ "$rate" =~ ^[0-9]+$ && "$duration" =~ ^[0-9]+$ ]] || die "RATE and DURATION must be whole numbers"
export GOAL="${GOAL:-1.15}"
[[ "$GOAL" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "GOAL must be a ratio such as 1.15 (got '$GOAL')"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is needed to measure k6's CPU: apt-get install time"
command -v taskset >/dev/null || die "taskset (util-linux) is needed to pin k6"
command -v curl >/dev/null || die "curl is needed to resume k6 and read its metrics"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
work="results/bench-k6-cost-$stamp"
mkdir -p "$work"
report="results/bench-k6-cost-$stamp.txt"

holder_pid=""
k6_pid=""
poller_pid=""
cleanup() {
  local pid
  for pid in "$poller_pid" "$k6_pid"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  if [[ -n "$holder_pid" ]] && kill -0 "$holder_pid" 2>/dev/null; then
    log "stopping the target's run (PostgreSQL, delay service, target)"
    kill -TERM "$holder_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$holder_pid" 2>/dev/null || break
      sleep 1
    done
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The load both scripts offer, and (for b) the script it generates. No warmup: both send RATE x DURATION requests.
cat > "$work/load.yaml" <<EOF
apiVersion: stackbench.dev/v1alpha1
kind: BenchmarkRun
metadata:
  name: k6-cost
spec:
  target:
    variant: webflux-r2dbc
    resources: {cpu: "1", memory: 512Mi}
  workload:
    scenario: upstream
    upstreamDelay: 0ms
    load: {executor: constant-arrival-rate, rate: $rate}
    warmup: 0s
    duration: ${duration}s
EOF
# The statistics of the report (not needed by anything else, so not part of hack/setup.sh).
SCIPY_VERSION="1.15.3"  # the newest that still supports Python 3.10 and 3.11
stats_env="$STACKBENCH_TOOLS/bench-python-scipy-$SCIPY_VERSION"
if [[ ! -f "$stats_env/.complete" ]]; then
  log "installing SciPy $SCIPY_VERSION for the report's statistics into $stats_env (PyPI)"
  rm -rf "$stats_env"
  python3 -m venv "$stats_env" || die "python3 -m venv failed: install python3-venv"
  "$stats_env/bin/python" -m pip install --quiet --only-binary=:all: "scipy==$SCIPY_VERSION" \
    || die "pip install scipy==$SCIPY_VERSION failed; check that PyPI is reachable"
  touch "$stats_env/.complete"
fi

# Builds missing jars and installs tools first; the JDK then runs local mode's k6 follower.
./stackbench run --help >/dev/null
select_jdk
./stackbench script "$work/load.yaml" > "$work/generated.js"
mapfile -t k6_args < <(./stackbench script --k6-args "$work/load.yaml")
if [[ -z "${STACKBENCH_K6:-}" && -f "$STACKBENCH_TOOLS/env.sh" ]]; then
  # shellcheck source=/dev/null
  source "$STACKBENCH_TOOLS/env.sh"
fi
k6_bin="${STACKBENCH_K6:-}"
[[ -x "$k6_bin" ]] || die "no k6 at '$k6_bin' (\$STACKBENCH_K6): run hack/setup.sh k6 and source .tools/env.sh"
"$k6_bin" version | grep -q ', stackbench \[output\]' \
  || die "$k6_bin has no stackbench output, which local mode's k6 arguments name: run hack/setup.sh k6"

read -r pre_vus max_vus < <(python3 - "$work/generated.js" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
print(re.search(r'"preAllocatedVUs" : (\d+)', text).group(1), re.search(r'"maxVUs" : (\d+)', text).group(1))
EOF
)
cat > "$work/plain.js" <<EOF
// One GET per iteration at the generated script's load and VUs; handleSummary only reports the request count.
import http from 'k6/http';
const URL = __ENV.STACKBENCH_BASE_URL + '/api/upstream?delayMs=0';
export const options = {
  scenarios: { measure: { executor: 'constant-arrival-rate', rate: $rate, timeUnit: '1s', duration: '${duration}s',
    preAllocatedVUs: $pre_vus, maxVUs: $max_vus } },
};
export default function () {
  http.get(URL);
}
export function handleSummary(data) {
  return { stdout: 'requests ' + data.metrics.http_reqs.values.count + '\n' };
}
EOF

# The target: a run at 1 request/s lasting past the benchmark (each k6 run takes DURATION plus ~15 s to start and end).
hold_seconds=$(( 3 * rounds * (duration + 30) + 300 ))
cat > "$work/target.yaml" <<EOF
apiVersion: stackbench.dev/v1alpha1
kind: BenchmarkRun
metadata:
  name: k6-cost-target
spec:
  target:
    variant: webflux-r2dbc
    resources: {cpu: "1", memory: 512Mi}
  timeout: $(( hold_seconds + 600 ))s
  workload:
    scenario: upstream
    upstreamDelay: 0ms
    load: {executor: constant-arrival-rate, rate: 1, vus: 10}
    warmup: 0s
    duration: ${hold_seconds}s
EOF
log "starting PostgreSQL, the delay service and webflux-r2dbc through ./stackbench run"
./stackbench run --results-dir "$work/target-run" "$work/target.yaml" \
  > "$work/target-run.stdout" 2> "$work/target-run.stderr" &
holder_pid=$!
base_url=""
for _ in $(seq 1 300); do
  kill -0 "$holder_pid" 2>/dev/null || die "the target's run ended early: see $work/target-run.stderr"
  base_url="$(sed -n 's/.*LoadRunning: 1 k6 runner sends load to \(http[^ ]*\).*/\1/p' "$work/target-run.stderr" | head -1)"
  [[ -n "$base_url" ]] && break
  sleep 1
done
[[ -n "$base_url" ]] || die "the target did not become ready within 300 s: see $work/target-run.stderr"
k6_cpu="$(sed -n 's/.*k6, PostgreSQL and the delay service on CPU \([0-9,-]*\).*/\1/p' "$work/target-run.stderr" | head -1)"
k6_cpu="${k6_cpu:-0}"
log "target at $base_url; k6 runs pinned to CPU $k6_cpu"
# Warms the target's JIT so the first measured run does not meet a cold target.
for _ in $(seq 1 2000); do curl -s -o /dev/null "$base_url/api/upstream?delayMs=0" || true; done

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run_k6 LABEL N: one k6 process, measured; appends "LABEL N cpu_user cpu_sys requests load1" to $work/runs.txt.
run_k6() {
  local label="$1" n="$2" port out requests
  port="$(free_port)"
  out="$work/$label-$n"
  local load1
  load1="$(cut -d' ' -f1 /proc/loadavg)"
  if [[ "$label" == "plain" ]]; then
    STACKBENCH_BASE_URL="$base_url" K6_NO_USAGE_REPORT=true \
      /usr/bin/time -f "%U %S" -o "$out.time" taskset -c "$k6_cpu" "$k6_bin" run --quiet --no-color \
      --address "127.0.0.1:$port" "$work/plain.js" > "$out.stdout" 2> "$out.stderr" &
    k6_pid=$!
  else
    local args=() arg
    for arg in "${k6_args[@]}"; do
      arg="${arg/ADDRESS/127.0.0.1:$port}"
      arg="${arg/PER_SECOND_FILE/$out.per-second.ndjson}"
      args+=("${arg/SCRIPT/$work/generated.js}")
    done
    STACKBENCH_BASE_URL="$base_url" STACKBENCH_SUMMARY_FILE="$out.summary.json" K6_NO_USAGE_REPORT=true \
      /usr/bin/time -f "%U %S" -o "$out.time" taskset -c "$k6_cpu" "$k6_bin" "${args[@]}" \
      > "$out.stdout" 2> "$out.stderr" &
    k6_pid=$!
    # Resumes k6 once its API answers; for (c) follows it with local mode's own follower (a read of the per-second
    # file a second, as local mode reads it).
    local resumed=""
    for _ in $(seq 1 600); do
      if curl -sf -o /dev/null -X PATCH -H 'Content-Type: application/json' \
        -d '{"data":{"type":"status","id":"default","attributes":{"paused":false}}}' \
        "http://127.0.0.1:$port/v1/status"; then
        resumed=yes
        break
      fi
      kill -0 "$k6_pid" 2>/dev/null || break
      sleep 0.1
    done
    [[ -n "$resumed" ]] || die "k6 ($label $n) could not be resumed: see $out.stderr"
    if [[ "$label" == "runner" ]]; then
      (
        while kill -0 "$k6_pid" 2>/dev/null; do
          sleep "$runner_read"
          curl -sf -o /dev/null --max-time 5 "http://127.0.0.1:$port/v1/metrics" || true
        done
      ) > /dev/null 2>&1 &
      poller_pid=$!
    fi
    if [[ "$label" == "local" ]]; then
      "$JAVA_HOME/bin/java" -cp "local/target/stackbench.jar:local/target/lib/*" dev.stackbench.local.K6PerSecondTail \
        "$out.per-second.ndjson" "$k6_pid" > "$out.follower" 2>&1 &
      poller_pid=$!
    fi
  fi
  wait "$k6_pid" || die "k6 ($label $n) failed: see $out.stderr"
  k6_pid=""
  if [[ -n "$poller_pid" ]]; then
    wait "$poller_pid" 2>/dev/null || true
    poller_pid=""
  fi
  if [[ "$label" == "plain" ]]; then
    requests="$(sed -n 's/^requests //p' "$out.stdout")"
  else
    requests="$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["k6"]["metrics"]["http_reqs{scenario:measure}"]["values"]["count"])' \
      "$out.summary.json")"
  fi
  echo "$label $n $(cat "$out.time") $requests $load1" >> "$work/runs.txt"
  log "$label run $n: $(cat "$out.time") CPU-s (user sys), $requests requests"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/runs.txt"
for n in $(seq 1 "$rounds"); do
  run_k6 plain "$n"
  run_k6 runner "$n"
  run_k6 local "$n"
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

"$stats_env/bin/python" - "$work/runs.txt" "$rate" "$duration" "$load_before" "$load_after" \
  "$(git rev-parse --short HEAD)" > "$report" <<'EOF'
import os
import sys
runs_file, rate, duration, before, after, commit = sys.argv[1:]
rows = [line.split() for line in open(runs_file) if line.strip()]
print(f"commit {commit}: k6 CPU per request, {rate} requests/s for {duration} s, k6 pinned to one CPU,"
      " against webflux-r2dbc (upstream, no delay)")
print("(a) plain: one http.get per iteration; (b) runner: the script stackbench generates, resumed, its metrics read")
print(f"every {os.environ.get('RUNNER_READ', '5')} s, as the operator reads a k6-operator runner's; (c) local: the same")
print("script, not read, its per-second file read once a second, as local mode runs it")
print()
print(f"{'script':<10} {'run':>3} {'user s':>7} {'sys s':>6} {'CPU s':>6} {'requests':>9} {'CPU ms/req':>10} {'load1':>6}")
per_request = {"plain": [], "runner": [], "local": []}
for label, n, user, sys_s, requests, load1 in rows:
    cpu = float(user) + float(sys_s)
    ms = 1000 * cpu / int(requests)
    per_request[label].append(ms)
    print(f"{label:<10} {n:>3} {float(user):>7.2f} {float(sys_s):>6.2f} {cpu:>6.2f} {int(requests):>9} {ms:>10.3f}"
          f" {load1:>6}")
mean = {label: sum(values) / len(values) for label, values in per_request.items()}
a, b, c = mean["plain"], mean["runner"], mean["local"]
print()
print(f"mean CPU ms per request: (a) plain {a:.3f}, (b) runner {b:.3f}, (c) local {c:.3f}")
print(f"ratio b/a {b / a:.2f} (the script as a cluster runner runs it), c/a {c / a:.2f} (as local mode runs it)")
print()
# Paired by round: the three scripts of a round ran back to back, so the machine's slow and fast spells cancel out.
import math
from scipy import stats
rounds = {}
for label, n, user, sys_s, requests, load1 in rows:
    rounds.setdefault(n, {})[label] = (float(user) + float(sys_s)) / int(requests)
goal = float(os.environ.get("GOAL", "1.15"))
for label, name in (("runner", "b/a"), ("local", "c/a")):
    logs = [math.log(r[label] / r["plain"]) for r in rounds.values() if label in r and "plain" in r]
    print(f"{name} by round: " + ", ".join(f"{math.exp(x):.2f}" for x in logs))
    test = stats.ttest_1samp(logs, math.log(goal), alternative="less")
    low, high = stats.ttest_1samp(logs, 0.0).confidence_interval(0.95)
    print(f"{name} geometric mean {math.exp(sum(logs) / len(logs)):.3f}, 95% confidence interval"
          f" {math.exp(low):.3f}-{math.exp(high):.3f} ({len(logs)} rounds);"
          f" one-sided p-value that it is below {goal:.2f}: {test.pvalue:.3f}")
print(f"load average before {before}, after {after}")
EOF
cat "$report"
log "written to $report (k6 outputs and the target's run in $work)"
