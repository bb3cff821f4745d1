#!/usr/bin/env bash
# Benchmark (not a test): what an app image's JVM start costs on one CPU, and which threads spend it.
#
#   hack/bench-app-start.sh [STARTS] [IMAGE_TAR] [PROFILE]
#
# Starts the app of IMAGE_TAR (default: the webflux-app image hack/images.sh builds) STARTS times (default 3, at most
# 20) in the image's root filesystem (its layers, unpacked once), with the image's own entrypoint and JVM options
# (its AOT cache), the JVM options the operator gives a target of 1 CPU and 1 GiB, pinned to the machine's last CPU,
# against a PostgreSQL on 127.0.0.1 that asks for passwords as a run's database does (SCRAM). PROFILE is the Spring
# profile, the variant (default: webflux-r2dbc; the delay service's image needs none: pass "").
# Each start ends at Spring's "Started ... in" line. The report gives, per start, Spring's own figures, whether the
# JVM mapped the image's AOT cache, the CPU seconds the process used until then (read within 0.2 s of the line) and
# how they split over its threads (the main thread, the JIT's C2 and C1 compiler threads, the rest), so a start on a
# node can be set against the same start with a CPU to itself. With STACKBENCH_APP_JDK_JAVA_OPTIONS set, it replaces
# the image's JDK_JAVA_OPTIONS (set it empty to start without the AOT cache).
#
# Needs root (a private mount namespace and chroot per start; nothing on the machine changes and nothing is left:
# the mounts go with the namespace, PostgreSQL is stopped and the directories removed on exit, also after a failure).
# Take it on an idle machine: the load average before and after is part of the result.
#
# Writes results/bench-app-start-<time>.txt.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$STACKBENCH_ROOT"

starts="${1:-3}"
image="${2:-targets/webflux-app/target/images/webflux-app.tar}"
profile="${3-webflux-r2dbc}"
[[ "$starts" =~ ^[0-9]+$ && "$starts" -ge 1 && "$starts" -le 20 ]] \
  || die "STARTS must be a whole number from 1 to 20 (got '$starts')"
[[ -f "$image" ]] || die "no image tarball at $image: build the images with hack/images.sh, or name another tarball"
[[ "$(id -u)" == 0 ]] || die "run it as root: each start needs a private mount namespace and chroot"
for tool in unshare chroot taskset setpriv python3; do
  command -v "$tool" >/dev/null || die "$tool is needed (util-linux, coreutils, python3)"
done
if [[ -z "${STACKBENCH_PG_BIN:-}" && -f "$STACKBENCH_TOOLS/env.sh" ]]; then
  # shellcheck disable=SC1091
  source "$STACKBENCH_TOOLS/env.sh"
fi
pg_bin="${STACKBENCH_PG_BIN:-}"
[[ -x "$pg_bin/initdb" ]] || die "no PostgreSQL binaries at '$pg_bin' (\$STACKBENCH_PG_BIN): run hack/setup.sh postgres"

cpu="$(( $(nproc) - 1 ))"
# As the operator sizes a target of 1 CPU and 1 GiB (JvmSizing): the JVM sees one processor and a 1 GiB machine.
jvm_options="-XX:ActiveProcessorCount=1 -XX:MaxRAM=1073741824 -XX:MaxRAMPercentage=75"

work="$(mktemp -d /tmp/stackbench-app-start.XXXXXX)"
# PostgreSQL's user and the image's user reach their directories through it.
chmod 755 "$work"
app_pid=""
cleanup() {
  [[ -n "$app_pid" ]] && kill -9 "$app_pid" 2>/dev/null || true
  if [[ -f "$work/pg/data/postmaster.pid" ]]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$pg_bin/pg_ctl" -D "$work/pg/data" stop -m immediate \
      >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

log "unpacking $image"
mkdir -p "$work/image" "$work/rootfs"
tar -xf "$image" -C "$work/image"
python3 - "$work/image" > "$work/layers" <<'EOF'
import json, sys
print("\n".join(json.load(open(sys.argv[1] + "/manifest.json"))[0]["Layers"]))
EOF
while read -r layer; do
  tar -xzf "$work/image/$layer" -C "$work/rootfs" 2>/dev/null
done < "$work/layers"
mkdir -p "$work/rootfs/dev" "$work/rootfs/proc" "$work/rootfs/tmp"
# The image's entrypoint, user and environment (its JDK_JAVA_OPTIONS name the AOT cache), one per line.
python3 - "$work/image/config.json" "$work" <<'EOF'
import json, sys
config = json.load(open(sys.argv[1]))["config"]
out = sys.argv[2]
open(out + "/entrypoint", "w").write("\n".join(config["Entrypoint"] + (config.get("Cmd") or [])) + "\n")
open(out + "/user", "w").write(config.get("User") or "0:0")
open(out + "/env", "w").write("\n".join(config.get("Env") or []) + "\n")
EOF

log "starting PostgreSQL on 127.0.0.1 (password logins, as a run's database)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/pg"
chown nobody "$work/pg"
printf 'stackbench\n' > "$work/pg/pw"
chown nobody "$work/pg/pw"
as_pg() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
as_pg "$pg_bin/initdb" -D "$work/pg/data" --username=stackbench --pwfile="$work/pg/pw" --auth-local=trust \
  --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
pg_options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$work/pg"
pg_options+=" -c max_connections=300 -c fsync=off"
as_pg "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w start -o "$pg_options" >/dev/null \
  || die "PostgreSQL did not start: see $work/pg/log above"
as_pg "$pg_bin/createdb" -h "$work/pg" -p "$port" -U stackbench stackbench

mapfile -t entrypoint < "$work/entrypoint"
mapfile -t image_env < "$work/env"
if [[ -n "${STACKBENCH_APP_JDK_JAVA_OPTIONS+set}" ]]; then
  for i in "${!image_env[@]}"; do
    [[ "${image_env[$i]}" == JDK_JAVA_OPTIONS=* ]] && unset 'image_env[i]'
  done
  image_env+=("JDK_JAVA_OPTIONS=$STACKBENCH_APP_JDK_JAVA_OPTIONS")
  printf 'JDK_JAVA_OPTIONS=%s\n' "$STACKBENCH_APP_JDK_JAVA_OPTIONS" > "$work/env.used"
else
  grep '^JDK_JAVA_OPTIONS=' "$work/env" > "$work/env.used" || printf 'no JDK_JAVA_OPTIONS\n' > "$work/env.used"
fi
app_env=("${image_env[@]}" "JAVA_TOOL_OPTIONS=$jvm_options" "BIND_ADDRESS=127.0.0.1"
  "PORT=18080" "MANAGEMENT_PORT=18081" "DB_HOST=127.0.0.1" "DB_PORT=$port" "DB_NAME=stackbench"
  "DB_USER=stackbench" "DB_PASSWORD=stackbench" "DB_CONNECT_RETRIES=0" "DELAY_SERVICE_URL=http://127.0.0.1:18090")
[[ -n "$profile" ]] && app_env+=("SPRING_PROFILES_ACTIVE=$profile")

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/rows"
for i in $(seq 1 "$starts"); do
  as_pg "$pg_bin/psql" -q -h "$work/pg" -p "$port" -U stackbench stackbench \
    -c 'SET client_min_messages TO warning' -c 'DROP SCHEMA public CASCADE' -c 'CREATE SCHEMA public' >/dev/null
  out="$work/start-$i.log"
  # A private mount namespace with the host's /dev and a /proc of its own, then the image's root and user.
  unshare --mount --fork --kill-child bash -c 'mount --bind /dev "$1/dev" && mount -t proc proc "$1/proc" && shift \
    && exec "$@"' _ "$work/rootfs" env -i "${app_env[@]}" taskset -c "$cpu" \
    chroot --userspec="$(cat "$work/user")" "$work/rootfs" "${entrypoint[@]}" > "$out" 2>&1 &
  app_pid=$!
  for _ in $(seq 1 1200); do
    grep -q "Started .* in [0-9.]* seconds" "$out" && break
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q "Started .* in [0-9.]* seconds" "$out" \
    || die "start $i: no 'Started' line within 120 s; its output: $(tail -5 "$out")"
  # unshare's child execs its way down to the JVM (env, taskset, chroot, java): the JVM is that child.
  java_pid="$(pgrep -P "$app_pid" | head -1 || true)"
  [[ -n "$java_pid" && "$(cat "/proc/$java_pid/comm" 2>/dev/null)" == java ]] \
    || die "start $i: cannot find the JVM's process under $app_pid"
  aot="$(grep -c '[.]aot$' "/proc/$java_pid/maps" || true)"
  python3 - "$java_pid" "$out" "$aot" >> "$work/rows" <<'EOF'
import glob, os, re, sys
pid, out, aot = sys.argv[1], sys.argv[2], "yes" if int(sys.argv[3] or 0) > 0 else "no"
hz = os.sysconf("SC_CLK_TCK")
groups = {"main": 0, "C2": 0, "C1": 0, "other": 0}
for task in glob.glob(f"/proc/{pid}/task/*"):
    try:
        comm = open(task + "/comm").read().strip()
        fields = open(task + "/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    ticks = int(fields[11]) + int(fields[12])
    # The launcher's thread and the main thread it starts keep the launcher's name.
    key = "C2" if comm.startswith("C2 Compiler") else "C1" if comm.startswith("C1 Compiler") else \
        "main" if comm in ("java", "main") else "other"
    groups[key] += ticks
total = sum(groups.values())
m = re.search(r"Started \S+ in ([0-9.]+) seconds \(process running for ([0-9.]+)\)", open(out).read())
threads = " ".join(f"{groups[k] / hz:.2f}" for k in ("main", "C2", "C1", "other"))
print(f"{m.group(1)} {m.group(2)} {aot} {total / hz:.2f} {threads}")
EOF
  kill -9 "$java_pid" "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  app_pid=""
  log "start $i: $(tail -1 "$work/rows")"
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
report="results/bench-app-start-$stamp.txt"
mkdir -p results
{
  printf 'App start on one CPU (CPU %s): %s, profile %s, commit %s, %s\n' "$cpu" "$image" "${profile:-none}" \
    "$(git rev-parse --short HEAD)" "$stamp"
  printf 'JAVA_TOOL_OPTIONS %s; image %s\n' "$jvm_options" "$(cat "$work/env.used")"
  printf 'load average before %s, after %s\n\n' "$load_before" "$load_after"
  printf '| start | Spring: started in s | process running for s | AOT cache mapped | CPU-s until started'
  printf ' | main thread | C2 compiler | C1 compiler | other threads |\n'
  printf '|---|---|---|---|---|---|---|---|---|\n'
  n=0
  while read -r started running aot cpu_s main c2 c1 other; do
    n=$((n + 1))
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
      "$n" "$started" "$running" "$aot" "$cpu_s" "$main" "$c2" "$c1" "$other"
  done < "$work/rows"
} > "$report"
cat "$report"
log "written to $report"
