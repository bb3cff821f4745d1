#!/usr/bin/env bash
# Runs BenchmarkRun files one after another on a test cluster with real nodes and writes what each run's status
# says: the cluster, the images and the chart as docs/cluster.md ("Real nodes without kind or Docker") sets them up
# by hand, then each file applied, followed until its run ends, and the next one. The cluster is taken down after the
# last run, also after a failure or Ctrl-C, with every change to the machine undone (hack/cluster.sh down).
#
#   sudo hack/runs-on-real-nodes.sh [--out DIR] [--dir CLUSTER_DIR] FILE...
#
# DIR (default results/real-nodes/<UTC time>) gets each run's BenchmarkRun as JSON (status included), the
# operator's log, and runs.md: one table row per run (requests/s, latency percentiles, errors, dropped iterations,
# peak threads, CPU of the target and of the k6 runner, what limited the run, a burst's makespan, a search's or a
# sweep's steps) with the machine's load average before and after each run, then a second table: the seconds from
# each run's creation to the milestones of its timeline, and what the run took beyond its load. A run that kept its
# pods (spec.cleanup Never) also leaves NAME.pods.log, every container's log with its times, and is then deleted
# unless it is the last, so that its pods free the nodes for the next file's run.
#
# Only BenchmarkRun files (not comparisons). This cluster's backend node shares the machine's CPUs with the load
# generator: a file that leaves the delay service at its default size (2 CPUs) gets 1 CPU here, as the examples set
# it, or the run's own database would not fit beside it (the table says so). Needs root, the tools of
# `sudo hack/setup.sh` and the image tars of hack/images.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  sed -n '/^#   sudo hack\/runs-on-real-nodes.sh/s/^#   //p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

out=""
cluster_dir="${TMPDIR:-/tmp}/stackbench-real-node-runs"
files=()
while (($#)); do
  case "$1" in
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --dir) cluster_dir="${2:?--dir needs a directory}"; shift 2 ;;
    -h|--help) usage ;;
    -*) die "unknown option '$1': the options are --out DIR and --dir CLUSTER_DIR" ;;
    *) files+=("$1"); shift ;;
  esac
done
((${#files[@]})) || die "name the BenchmarkRun files to run, e.g. examples/experiments/a-upstream-300ms/*.yaml"
for f in "${files[@]}"; do
  [[ -f "$f" ]] || die "'$f' is not a file: name BenchmarkRun YAML files"
  grep -q '^kind: *BenchmarkRun *$' "$f" \
    || die "'$f' is not a BenchmarkRun (kind: BenchmarkRun): this script runs runs one at a time; apply a comparison with kubectl"
done
((EUID == 0)) || die "real nodes need root: sudo $0 ..."
[[ -f "$STACKBENCH_TOOLS/env.sh" ]] || die "the tools are missing: run sudo hack/setup.sh first"
# shellcheck source=/dev/null
source "$STACKBENCH_TOOLS/env.sh"
[[ -x "${STACKBENCH_HELM:-}" ]] || die "helm is missing from $STACKBENCH_TOOLS: run sudo hack/setup.sh first"

# The image tars and the pools whose nodes run their pods.
declare -A image_pools=(
  [operator/target/images/operator.tar]=system
  [operator/target/images/k6-operator.tar]=system
  [operator/target/images/k6-starter.tar]=system
  [operator/target/images/k6.tar]=loadgen
  [targets/mvc-app/target/images/mvc-app.tar]=target
  [targets/webflux-app/target/images/webflux-app.tar]=target
  [targets/delay-service/target/images/delay-service.tar]=backend
)
images=()
for tar in "${!image_pools[@]}"; do
  [[ -f "$STACKBENCH_ROOT/$tar" ]] || die "the image tar $tar is missing: build the images with hack/images.sh"
  images+=("${image_pools[$tar]}=$STACKBENCH_ROOT/$tar")
done

out="${out:-$STACKBENCH_ROOT/results/real-nodes/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
namespace=stackbench
kubectl=("$STACKBENCH_KUBECTL" --kubeconfig "$cluster_dir/kubeconfig")

teardown() {
  local rc=$?
  if [[ -f "$cluster_dir/kubeconfig" ]]; then
    "${kubectl[@]}" logs -n "$namespace" deployment/stackbench --tail=-1 --timestamps >"$out/operator.log" 2>&1 || true
  fi
  "$STACKBENCH_ROOT/hack/cluster.sh" down --dir "$cluster_dir" >"$out/cluster-down.log" 2>&1 \
    || echo "hack/cluster.sh down failed: see $out/cluster-down.log, then run sudo hack/cluster.sh leftovers" >&2
  exit "$rc"
}
trap teardown EXIT
trap 'exit 130' INT TERM

log "starting a cluster with real nodes in $cluster_dir"
"$STACKBENCH_ROOT/hack/cluster.sh" up --real-nodes --dir "$cluster_dir" --owner-pid $$ >"$out/cluster-up.log" 2>&1 \
  || die "the cluster did not start: see $out/cluster-up.log"
log "importing ${#images[@]} images"
"$STACKBENCH_ROOT/hack/cluster.sh" load-images --dir "$cluster_dir" "${images[@]}" >"$out/load-images.log" 2>&1 \
  || die "importing the images failed: see $out/load-images.log"
"$STACKBENCH_ROOT/hack/chart-deps-offline.sh" >"$out/chart-deps.log" 2>&1 \
  || die "preparing the chart's dependencies failed: see $out/chart-deps.log"
log "installing the chart (the operator and k6-operator)"
KUBECONFIG="$cluster_dir/kubeconfig" "$STACKBENCH_HELM" install stackbench "$STACKBENCH_ROOT/charts/stackbench" \
  --namespace "$namespace" --create-namespace --wait --timeout 5m \
  --set k6.installOperator=true --set database.image=stackbench/postgres:15 >"$out/helm-install.log" 2>&1 \
  || die "helm install failed: see $out/helm-install.log"

# run_file FILE: applies the file (the delay service sized to this cluster when the file leaves it at its default),
# follows the run until it ends and keeps its resource; prints the run's name.
run_file() {
  local file="$1" name manifest phase message last="" started
  # kubectl reads the YAML (the cluster knows the CRD); the script adjusts the JSON.
  manifest="$("${kubectl[@]}" create -n "$namespace" --dry-run=client -o json -f "$file" | python3 -c '
import json, sys
run = json.load(sys.stdin)
delay = run["spec"].setdefault("backend", {}).setdefault("delayService", {})
if "resources" not in delay:
    delay["resources"] = {"cpu": "1", "memory": "1Gi"}
    run["metadata"].setdefault("annotations", {})["stackbench.dev/delay-service-resized"] = "1 CPU"
print(json.dumps(run))
')" || die "kubectl could not read $file as a BenchmarkRun"
  name="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["name"])' <<<"$manifest")"
  echo "$name" >>"$out/runs.list"
  "${kubectl[@]}" delete benchmarkrun -n "$namespace" "$name" --ignore-not-found --wait=true >/dev/null
  cut -d' ' -f1-3 /proc/loadavg >"$out/$name.load-before"
  started=$(date +%s)
  "${kubectl[@]}" apply -n "$namespace" -f - <<<"$manifest" >/dev/null
  # The operator fails a run at its spec.timeout; this bound only guards against an operator that stopped.
  local deadline=$((started + 30 * 60))
  while :; do
    phase="$("${kubectl[@]}" get benchmarkrun -n "$namespace" "$name" -o jsonpath='{.status.phase}' 2>/dev/null || true)"
    message="$("${kubectl[@]}" get benchmarkrun -n "$namespace" "$name" -o jsonpath='{.status.message}' 2>/dev/null || true)"
    if [[ "$message" != "$last" ]]; then
      log "$name: ${phase:-Pending}: $message"
      last="$message"
    fi
    [[ "$phase" == Succeeded || "$phase" == Failed ]] && break
    if (($(date +%s) > deadline)); then
      log "$name: still $phase after 30 minutes; going on with the next file"
      break
    fi
    sleep 5
  done
  echo $(($(date +%s) - started)) >"$out/$name.wall-seconds"
  cut -d' ' -f1-3 /proc/loadavg >"$out/$name.load-after"
  "${kubectl[@]}" get benchmarkrun -n "$namespace" "$name" -o json >"$out/$name.json"
  save_pod_logs "$name"
}

# save_pod_logs NAME: when the run kept its pods (its CleanedUp condition says KeptByPolicy: spec.cleanup Never, or
# OnSuccess after a failure), writes the logs of every container of its pods (target, database, delay service,
# verification, k6 runners: all named after the run), each line with its time, to NAME.pods.log; then deletes the run
# unless it is the last file's, since its pods hold the nodes the next run needs.
save_pod_logs() {
  local name="$1" pod cleaned="" deadline=$((SECONDS + 60))
  while [[ -z "$cleaned" ]] && ((SECONDS < deadline)); do
    cleaned="$("${kubectl[@]}" get benchmarkrun -n "$namespace" "$name" \
      -o jsonpath='{.status.conditions[?(@.type=="CleanedUp")].reason}' 2>/dev/null || true)"
    [[ -n "$cleaned" ]] || sleep 1
  done
  [[ "$cleaned" == KeptByPolicy ]] || return 0
  : >"$out/$name.pods.log"
  for pod in $("${kubectl[@]}" get pods -n "$namespace" -o name 2>/dev/null | grep "^pod/$name-" || true); do
    {
      echo "== $pod"
      "${kubectl[@]}" logs -n "$namespace" "$pod" --all-containers --prefix --timestamps 2>&1 || true
    } >>"$out/$name.pods.log"
  done
  if [[ "$name" != "$last_name" ]]; then
    log "$name kept its pods: their logs are in $out/$name.pods.log; deleting the run so the next one gets the nodes"
    "${kubectl[@]}" delete benchmarkrun -n "$namespace" "$name" --wait=true >/dev/null \
      || log "deleting $name failed: the next run may queue behind its pods"
  fi
}

# The name of the last file's run: only a run before it gives its kept pods up for the next one.
last_name="$("${kubectl[@]}" create --dry-run=client -o jsonpath='{.metadata.name}' -f "${files[-1]}")" \
  || die "kubectl could not read ${files[-1]} as a BenchmarkRun"
for f in "${files[@]}"; do
  run_file "$f"
done

python3 - "$out" <<'EOF' >"$out/runs.md"
import json, os, sys
out = sys.argv[1]
names = open(os.path.join(out, "runs.list")).read().split() if os.path.exists(os.path.join(out, "runs.list")) else []

def fmt(value, digits=1):
    return "-" if value is None else (f"{value:.{digits}f}" if isinstance(value, float) else str(value))

def read(name, suffix):
    path = os.path.join(out, name + suffix)
    return open(path).read().strip() if os.path.exists(path) else "?"

print("| run | variant | phase | requests | RPS | p50 ms | p95 ms | p99 ms | errors | dropped | intended p95 ms "
      "| peak threads | target CPU | runner CPU | Little's-law cap | limited by | burst makespan s | steps "
      "| wall s | load avg before → after |")
print("|" + "---|" * 20)
for name in names:
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        print(f"| {name} | | not run | " + "| " * 17)
        continue
    run = json.load(open(path))
    status = run.get("status", {})
    summary = status.get("summary") or {}
    latency = summary.get("latencyMs") or {}
    intended = summary.get("intendedLatencyMs") or {}
    target = summary.get("target") or {}
    pods = {p.get("role"): p for p in summary.get("pods") or []}
    limited = summary.get("limitedBy") or {}
    burst = summary.get("burst") or {}
    steps = status.get("steps") or []
    capacity = status.get("capacity") or {}
    step_text = "; ".join(
        f"{s.get('level')} {s.get('unit', '')}: {fmt(s.get('rps'))}/s {s.get('outcome', '')}".strip() for s in steps)
    if capacity.get("rate") is not None:
        step_text += f" → capacity {capacity['rate']}"
    errors = summary.get("errorRate")
    resized = "stackbench.dev/delay-service-resized" in (run["metadata"].get("annotations") or {})
    intended_p95 = intended.get("p95")
    intended_text = "-" if intended_p95 is None else (
        (">=" if "p95" in (intended.get("lowerBounds") or []) else "") + fmt(intended_p95))
    phase = status.get("phase", "?") + (" (delay service 1 CPU)" if resized else "")
    if status.get("phase") == "Failed":
        phase += ": " + (status.get("message") or "").replace("|", "/")[:160]
    row = [name, run["spec"]["target"]["variant"], phase, fmt(summary.get("requests")), fmt(summary.get("rps")),
           fmt(latency.get("p50")), fmt(latency.get("p95")), fmt(latency.get("p99")),
           "-" if errors is None else f"{100 * errors:.2f} %", fmt(summary.get("droppedIterations")), intended_text,
           fmt(target.get("peakThreads")), fmt((pods.get("target") or {}).get("avgCpuCores"), 2),
           fmt((pods.get("runner") or {}).get("avgCpuCores"), 2), fmt(summary.get("littleLawRps")),
           (limited.get("resource") or "-") + (": " + "; ".join(limited.get("evidence") or []) if limited.get("evidence") else ""),
           "-" if not burst.get("makespanMs") else f"{burst['makespanMs'] / 1000:.1f}",
           step_text or "-", read(name, ".wall-seconds"),
           read(name, ".load-before") + " → " + read(name, ".load-after")]
    print("| " + " | ".join(str(cell).replace("|", "/") for cell in row) + " |")

# Where each run's time went: seconds since the run was created, from status.timeline (pod times are whole seconds).
def seconds(text):
    """A Go-style duration as the spec writes it (10s, 1m30s, 500ms) in seconds."""
    import re
    total, rest = 0.0, text or ""
    for number, unit in re.findall(r"([0-9.]+)(ms|h|m|s)", rest):
        total += float(number) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit]
    return total

def first(timeline, what):
    return next((entry.get("seconds") for entry in timeline if entry.get("what") == what), None)

columns = [("pools acquired", "PoolsAcquired"), ("database Ready", "database Ready"),
           ("delay service Ready", "delay-service Ready"), ("target Ready", "target Ready"),
           ("TargetReady", "TargetReady"), ("WorkVerified", "WorkVerified"), ("k6 runner started", "k6 runner 1 started"),
           ("LoadRunning", "LoadRunning"), ("k6 runner finished", "k6 runner 1 finished"),
           ("RunSucceeded", "RunSucceeded")]
print()
print("Seconds since each run was created (status.timeline; pod times are whole seconds). Beyond load: RunSucceeded "
      "less the warmup and the measured duration, what a run costs besides its load.")
print()
print("| run | " + " | ".join(title for title, _ in columns) + " | verdict from | load s | beyond load s |")
print("|" + "---|" * (len(columns) + 4))
for name in names:
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        continue
    run = json.load(open(path))
    status = run.get("status", {})
    timeline = status.get("timeline") or []
    workload = run["spec"].get("workload") or {}
    load = seconds(workload.get("warmup")) + seconds(workload.get("duration"))
    succeeded = first(timeline, "RunSucceeded")
    verified_by = (status.get("verification") or {}).get("verifiedBy")
    cells = [fmt(first(timeline, what)) for _, what in columns]
    stepped = workload.get("sweep") or workload.get("capacity")
    beyond = "-" if succeeded is None or stepped else fmt(succeeded - load)
    print("| " + " | ".join([name] + cells + [verified_by or "itself" if status.get("verification") else "-",
                                             "-" if stepped else fmt(load), beyond]) + " |")
EOF
log "wrote $out/runs.md"
cat "$out/runs.md"
