#!/usr/bin/env bash
# Runs the images of hack/image-base/node-images.sh for real, without a container runtime: each image's layers
# are unpacked into a temporary root filesystem, which is mounted read-only in private mount and PID
# namespaces with a tmpfs /dev and a /proc, and the image's program runs there as the image user with
# no_new_privs and no capabilities (as under Pod Security "restricted", less seccomp).
#
#   hack/image-base/test-node-images.sh [--images DIR] [pause] [busybox] [postgres]   (default: all three)
#
#   pause     catatonit -P stays up as user 65535, reaps an orphan re-parented to it, exits on SIGTERM
#   busybox   the chart's test command `wget -q -O- -T 5 http://<service>.<namespace>.svc:8080/readyz` answers,
#             through DNS, from a private network namespace with its own DNS and HTTP servers on loopback;
#             -T bounds a request to a server that never answers; a 404 fails
#   postgres  the entrypoint creates a cluster in a volume (superuser, password from a file, database),
#             postgres takes extra -c options, the host's psql logs in with the password over TCP
#             (127.0.0.1, a free port), a wrong password is refused; fast shutdown on SIGINT exits 0; a restart
#             keeps the data without a password; a new cluster without a password fails with a clear error;
#             every PostgreSQL program and module finds its shared libraries inside the image
#
# DIR defaults to operator/target/images (hack/images.sh); a missing tar is built with node-images.sh.
# Needs root (namespaces, chroot), util-linux (unshare, setpriv, nsenter), iproute2 (ip), python3; psql from
# the host (/usr/lib/postgresql/*/bin/psql) when there is one, else the image's own.
# Everything it starts is stopped and its temporary directory removed on exit, failed or not.
# `[[ condition ]] && pass ... || fail ...` is an if-else here: pass only logs and never fails.
# shellcheck disable=SC2015
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE="$STACKBENCH_ROOT/hack/image-base"

images="$STACKBENCH_ROOT/operator/target/images"
checks=()
while (( $# > 0 )); do
  case "$1" in
    --images) images="${2:?--images needs a directory}"; shift 2 ;;
    pause|busybox|postgres) checks+=("$1"); shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1'; see hack/image-base/test-node-images.sh --help" ;;
  esac
done
(( ${#checks[@]} > 0 )) || checks=(pause busybox postgres)

[[ "$(id -u)" == 0 ]] || die "the image checks need root (mount and PID namespaces, chroot); run with sudo"
for tool in unshare setpriv nsenter ip python3 tar; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is needed; on Debian: apt-get install util-linux iproute2 python3 tar"
done
for check in "${checks[@]}"; do
  if [[ ! -f "$images/$check.tar" ]]; then
    log "$images/$check.tar is missing: building the node images"
    "$HERE/node-images.sh" "$images" >/dev/null
    break
  fi
done

work="$(mktemp -d)"
chmod 755 "$work"
# Background processes, all killed on exit before the directory goes. helpers: children of this shell.
# containers: outer unshare (a child of this shell) -> the container's PID 1, its child. SIGKILL to the init of
# a PID namespace ends every process in it; unshare's --kill-child does not reach a container whose user was
# changed, as that clears the parent-death signal. Both are only signalled while the outer unshare has not
# been waited for, so neither PID can have been reused.
helpers=()
declare -A containers=()
cleanup() {
  local pid
  for pid in "${!containers[@]}"; do
    [[ "$(ps -o ppid= -p "${containers[$pid]}" 2>/dev/null | tr -d ' ')" == "$pid" ]] \
      && kill -KILL "${containers[$pid]}" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  for pid in "${helpers[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${helpers[@]}"; do wait "$pid" 2>/dev/null || true; done
  # The mounts lived in the containers' private mount namespaces and went with them; --one-file-system makes
  # sure nothing still mounted is ever followed.
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
failures=0
pass() { log "ok: $*"; }
fail() { log "FAILED: $*"; failures=$((failures + 1)); }

# unpack NAME: unpacks $images/NAME.tar into $work/NAME/rootfs and its config into $work/NAME/config.json.
unpack() {
  local name="$1" dir="$work/$1" layer
  mkdir -p "$dir/rootfs"
  tar -xf "$images/$name.tar" -C "$dir" manifest.json || die "$images/$name.tar has no manifest.json"
  python3 - "$dir/manifest.json" "$images/$name.tar" "$dir" <<'EOF' || die "cannot read the image config"
import json, sys, tarfile
manifest = json.load(open(sys.argv[1]))[0]
with tarfile.open(sys.argv[2]) as image:
    config = json.load(image.extractfile(manifest["Config"]))
json.dump(config["config"], open(sys.argv[3] + "/config.json", "w"))
open(sys.argv[3] + "/layers", "w").write("\n".join(manifest["Layers"]) + "\n")
open(sys.argv[3] + "/tag", "w").write(manifest["RepoTags"][0])
EOF
  while read -r layer; do
    tar -xOf "$images/$name.tar" "$layer" | tar -x --numeric-owner -C "$dir/rootfs" \
      || die "cannot unpack layer $layer of $images/$name.tar"
  done < "$dir/layers"
  log "$name: $(cat "$dir/tag"), unpacked $(du -sh "$dir/rootfs" | cut -f1)"
}

# config NAME FIELD: the image config's FIELD, a list printed one item a line, a string as it is.
config() {
  python3 -c 'import json, sys
value = json.load(open(sys.argv[1])).get(sys.argv[2])
print("\n".join(value) if isinstance(value, list) else (value or ""))' "$work/$1/config.json" "$2"
}

# The root program of a container: PID 1 of fresh mount and PID namespaces. Arguments: ROOTFS USER WORKDIR,
# then VOLUME=HOST_PATH:CONTAINER_PATH and ENV=NAME=VALUE items, then -- and the command. The root filesystem
# is made read-only; /dev is a tmpfs with the usual devices and links, as runc sets it up; volumes are bind
# mounts (their mount points are created in the unpacked tree first, as kubelet does for files like
# /etc/hosts). The command runs with the image's environment only, as USER, with no_new_privs: going from
# root to another user clears every capability.
# shellcheck disable=SC2016 # the script is for the inner bash
CONTAINER_INIT='
set -euo pipefail
rootfs="$1" user="$2" workdir="$3"; shift 3
volumes=() environment=()
while [[ "$1" != -- ]]; do
  case "$1" in
    VOLUME=*) volumes+=("${1#VOLUME=}") ;;
    ENV=*) environment+=("${1#ENV=}") ;;
  esac
  shift
done
shift
mkdir -p "$rootfs/dev" "$rootfs/proc"
for volume in "${volumes[@]}"; do
  source="${volume%%:*}" target="$rootfs${volume#*:}"
  if [[ -d "$source" ]]; then mkdir -p "$target"; elif [[ ! -e "$target" ]]; then mkdir -p "$(dirname "$target")"; : > "$target"; fi
done
mount --bind "$rootfs" "$rootfs"
mount -o remount,bind,ro "$rootfs"
mount -t proc proc "$rootfs/proc"
mount -t tmpfs -o mode=755,nosuid tmpfs "$rootfs/dev"
for device in null zero full random urandom tty; do
  : > "$rootfs/dev/$device"
  mount --bind "/dev/$device" "$rootfs/dev/$device"
done
ln -s /proc/self/fd "$rootfs/dev/fd"
ln -s /proc/self/fd/0 "$rootfs/dev/stdin"
ln -s /proc/self/fd/1 "$rootfs/dev/stdout"
ln -s /proc/self/fd/2 "$rootfs/dev/stderr"
mkdir "$rootfs/dev/shm"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=64m shm "$rootfs/dev/shm"
for volume in "${volumes[@]}"; do
  mount --bind "${volume%%:*}" "$rootfs${volume#*:}"
done
exec env -i "${environment[@]}" /usr/bin/setpriv --no-new-privs \
  /usr/bin/unshare --root="$rootfs" --wd="$workdir" --setgid="${user#*:}" --setuid="${user%%:*}" -- "$@"
'

# container NAME LOG [VOLUME=...] [ENV=...] [-- COMMAND...]: runs image NAME in the background, output to LOG;
# sets container_pid (the outer unshare; `wait` on it gives the container's exit status) and container_init
# (PID 1 of the container as seen from here). Without a command, the image's entrypoint runs. With NETNS_PID
# set, the container joins the network namespace of that process (nsenter execs unshare: same PID).
container() {
  local name="$1" log="$2"; shift 2
  local extra=() command=() item
  while (( $# > 0 )); do
    if [[ "$1" == -- ]]; then shift; command=("$@"); break; fi
    extra+=("$1"); shift
  done
  (( ${#command[@]} > 0 )) || mapfile -t command < <(config "$name" Entrypoint)
  local environment=()
  while read -r item; do [[ -n "$item" ]] && environment+=("ENV=$item"); done < <(config "$name" Env)
  local enter=() user workdir
  [[ -n "${NETNS_PID:-}" ]] && enter=(nsenter --target "$NETNS_PID" --net --)
  # Looked up first: a command substitution in the background command would run as a child of that process.
  user="$(config "$name" User)"
  workdir="$(config "$name" WorkingDir)"
  "${enter[@]}" unshare --mount --propagation private --pid --fork --kill-child \
    bash -c "$CONTAINER_INIT" container "$work/$name/rootfs" "$user" "$workdir" \
    "${environment[@]}" "${extra[@]}" -- "${command[@]}" > "$log" 2>&1 &
  container_pid=$!
  containers[$container_pid]=""
  container_init=""
  for _ in $(seq 50); do
    container_init="$(pgrep -P "$container_pid" | head -1 || true)"
    [[ -n "$container_init" ]] && break
    sleep 0.1
  done
  [[ -n "$container_init" ]] || { cat "$log" >&2; die "$name: the container did not start"; }
  containers[$container_pid]="$container_init"
}

# container_exit TIMEOUT_SECONDS: waits for the last container to end and sets status to its exit status, or
# to "timeout" after killing it. (Not in a subshell: only this shell can wait for its own children.)
container_exit() {
  local deadline=$((SECONDS + $1))
  while kill -0 "$container_pid" 2>/dev/null && (( SECONDS < deadline )); do sleep 0.2; done
  if kill -0 "$container_pid" 2>/dev/null; then
    kill -KILL "$container_init" "$container_pid" 2>/dev/null || true
    wait "$container_pid" 2>/dev/null || true
    unset "containers[$container_pid]"
    status=timeout
    return
  fi
  status=0
  wait "$container_pid" || status=$?
  unset "containers[$container_pid]"
}

# process_field PID FIELD: a line's value from /proc/PID/status (Uid, Gid, Groups, CapEff, NoNewPrivs).
process_field() { awk -v field="$2:" '$1 == field { $1 = ""; sub(/^ /, ""); print }' "/proc/$1/status"; }

check_security() {
  local name="$1" pid="$2" uid="$3"
  local uids caps nnp
  uids="$(process_field "$pid" Uid)"; caps="$(process_field "$pid" CapEff)"; nnp="$(process_field "$pid" NoNewPrivs)"
  if [[ "$uids" == "$uid $uid $uid $uid" && "$caps" == 0000000000000000 && "$nnp" == 1 ]]; then
    pass "$name runs as $uid, no capabilities, no_new_privs"
  else
    fail "$name runs with Uid '$uids', CapEff '$caps', NoNewPrivs '$nnp' (expected $uid, none, 1)"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

check_pause() {
  unpack pause
  [[ "$(config pause User)" == 65535:65535 ]] && pass "pause: image user 65535" \
    || fail "pause: image user is '$(config pause User)'"
  container pause "$work/pause.log"
  sleep 1
  if ! kill -0 "$container_init" 2>/dev/null; then
    fail "pause: catatonit exited: $(cat "$work/pause.log")"
    return
  fi
  check_security pause "$container_init" 65535
  # A process whose parent exits inside the pod's PID namespace is re-parented to PID 1, which must reap it.
  nsenter --target "$container_init" --pid -- /bin/sh -c 'sleep 1 & exit 0'
  sleep 0.3
  local children zombies status
  children="$(pgrep -c -x sleep -P "$container_init" || true)"
  sleep 2
  zombies="$(pgrep -c -r Z -P "$container_init" || true)"
  [[ "$children" == 1 && "$zombies" == 0 ]] && pass "pause: an orphan re-parented to catatonit is reaped" \
    || fail "pause: $children orphan(s) re-parented to catatonit, $zombies zombie(s) left"
  kill -TERM "$container_init"
  container_exit 5
  [[ "$status" != timeout ]] && pass "pause: exits on SIGTERM (status $status)" \
    || fail "pause: still running 5 s after SIGTERM"
}

check_busybox() {
  unpack busybox
  # A network namespace of our own (loopback only) for a DNS server answering every name with 127.0.0.1, the
  # "operator" health endpoint on 8080 and a port that accepts connections but never answers.
  unshare --net sleep 600 &
  local netns=$!
  helpers+=("$netns")
  sleep 0.2
  nsenter --target "$netns" --net -- ip link set lo up
  cat > "$work/servers.py" <<'EOF'
import http.server, socket, struct, sys, threading

def dns():
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 53))
    while True:
        query, client = server.recvfrom(512)
        end = 12
        while query[end] != 0:
            end += query[end] + 1
        qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
        question = query[12:end + 5]
        answer = b""
        if qtype == 1:  # A: 127.0.0.1; anything else: no records
            answer = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 5, 4) + socket.inet_aton("127.0.0.1")
        header = struct.pack(">HHHHHH", struct.unpack(">H", query[:2])[0], 0x8180, 1, 1 if answer else 0, 0, 0)
        server.sendto(header + question + answer, client)

def silent():
    server = socket.socket()
    server.bind(("127.0.0.1", 8081))
    server.listen(8)
    held = []
    while True:
        held.append(server.accept()[0])

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"ok\n" if self.path == "/readyz" else b"not found\n"
        self.send_response(200 if self.path == "/readyz" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

threading.Thread(target=dns, daemon=True).start()
threading.Thread(target=silent, daemon=True).start()
print("ready", flush=True)
http.server.HTTPServer(("127.0.0.1", 8080), Health).serve_forever()
EOF
  nsenter --target "$netns" --net -- python3 "$work/servers.py" > "$work/servers.log" 2>&1 &
  helpers+=("$!")
  for _ in $(seq 50); do grep -q ready "$work/servers.log" && break; sleep 0.1; done
  grep -q ready "$work/servers.log" || { cat "$work/servers.log" >&2; die "busybox: the test servers did not start"; }
  # What kubelet mounts into every container.
  printf '127.0.0.1\tlocalhost\n' > "$work/hosts"
  printf 'search stackbench-system.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.1\noptions ndots:5\n' \
    > "$work/resolv.conf"
  local mounts=("VOLUME=$work/hosts:/etc/hosts" "VOLUME=$work/resolv.conf:/etc/resolv.conf") status output

  NETNS_PID="$netns" container busybox "$work/busybox-wget.log" "${mounts[@]}" \
    -- wget -q -O- -T 5 http://stackbench.stackbench-system.svc:8080/readyz
  container_exit 20; output="$(cat "$work/busybox-wget.log")"
  [[ "$status" == 0 && "$output" == ok ]] && pass "busybox: the chart's wget -q -O- -T 5 command gets 'ok' through DNS" \
    || fail "busybox: chart's wget command: status $status, output: $output"

  local start=$SECONDS
  NETNS_PID="$netns" container busybox "$work/busybox-timeout.log" "${mounts[@]}" \
    -- wget -q -O- -T 2 http://127.0.0.1:8081/readyz
  container_exit 20
  [[ "$status" != 0 && "$status" != timeout && "$status" != 139 ]] && (( SECONDS - start < 10 )) \
    && pass "busybox: wget -T 2 gives up on a server that never answers (status $status, $((SECONDS - start)) s)" \
    || fail "busybox: wget -T 2 against a silent server: status $status after $((SECONDS - start)) s: $(cat "$work/busybox-timeout.log")"

  NETNS_PID="$netns" container busybox "$work/busybox-404.log" "${mounts[@]}" \
    -- wget -q -O- -T 5 http://127.0.0.1:8080/missing
  container_exit 20
  [[ "$status" != 0 && "$status" != timeout ]] && pass "busybox: wget fails on a 404 (status $status)" \
    || fail "busybox: wget on a 404: status $status"

  # shellcheck disable=SC2016 # expanded by the image's sh
  NETNS_PID="$netns" container busybox "$work/busybox-sh.log" "${mounts[@]}" -- sh -c 'echo "$(id -u) $(pwd)"'
  container_exit 10; output="$(cat "$work/busybox-sh.log")"
  [[ "$status" == 0 && "$output" == "65532 /home/nonroot" ]] && pass "busybox: sh runs as 65532 in /home/nonroot" \
    || fail "busybox: sh: status $status, output: $output"
}

check_postgres() {
  unpack postgres
  local rootfs="$work/postgres/rootfs" file missing=""
  # Every program and module resolves its libraries inside the image (its own loader, chrooted).
  while read -r file; do
    head -c 4 "$file" | grep -q ELF || continue
    if chroot "$rootfs" /lib64/ld-linux-x86-64.so.2 --list "${file#"$rootfs"}" 2>&1 | grep -q 'not found'; then
      missing+=" ${file#"$rootfs"}"
    fi
  done < <(find "$rootfs/usr/lib/postgresql" -type f)
  [[ -z "$missing" ]] && pass "postgres: every PostgreSQL program and module finds its libraries" \
    || fail "postgres: missing libraries for:$missing"

  local psql=() candidate port user=bench database=bench-db password="pa ss'w\"rd" status
  for candidate in /usr/lib/postgresql/*/bin/psql; do
    [[ -x "$candidate" ]] && psql=("$candidate")
  done
  if (( ${#psql[@]} == 0 )); then
    log "no psql on this machine: using the image's own (apt-get install postgresql-client for the host's)"
    psql=(chroot --userspec=65532:65532 "$rootfs" /usr/lib/postgresql/15/bin/psql)
  fi
  port="$(free_port)"
  # Volumes as kubelet makes them with fsGroup 65532: root-owned, group-writable, set-group-ID.
  local volume
  for volume in data run tmp secret; do
    mkdir "$work/volume-$volume"
    chown 0:65532 "$work/volume-$volume"
    chmod 2770 "$work/volume-$volume"
  done
  printf '%s\n' "$password" > "$work/volume-secret/password"
  chown 0:65532 "$work/volume-secret/password"
  chmod 440 "$work/volume-secret/password"
  local mounts=("VOLUME=$work/volume-data:/var/lib/postgresql" "VOLUME=$work/volume-run:/var/run/postgresql"
    "VOLUME=$work/volume-tmp:/tmp" "VOLUME=$work/volume-secret:/var/run/secrets/postgres")
  local args=(-c listen_addresses=127.0.0.1 -c "port=$port" -c max_connections=300)
  # query PASSWORD SQL: runs SQL as the superuser over TCP, prints the unaligned result.
  query() {
    PGPASSWORD="$1" PGCONNECT_TIMEOUT=5 "${psql[@]}" -XAtq -v ON_ERROR_STOP=1 \
      "host=127.0.0.1 port=$port user=$user dbname=$database" -c "$2"
  }
  # await_ready: until the server accepts the login, or the container ended, or 60 s passed.
  await_ready() {
    local deadline=$((SECONDS + 60))
    while (( SECONDS < deadline )); do
      query "$password" 'SELECT 1' >/dev/null 2>&1 && return 0
      kill -0 "$container_pid" 2>/dev/null || return 1
      sleep 0.5
    done
    return 1
  }
  local entrypoint
  entrypoint="$(config postgres Entrypoint)"
  [[ "$(config postgres StopSignal)" == SIGINT ]] && pass "postgres: stopped with SIGINT (fast shutdown)" \
    || fail "postgres: image stop signal '$(config postgres StopSignal)', expected SIGINT"

  log "postgres: first start (initdb) on 127.0.0.1:$port"
  container postgres "$work/postgres-1.log" "${mounts[@]}" "ENV=POSTGRES_USER=$user" "ENV=POSTGRES_DB=$database" \
    "ENV=POSTGRES_PASSWORD_FILE=/var/run/secrets/postgres/password" -- "$entrypoint" "${args[@]}"
  if ! await_ready; then
    fail "postgres: the first start did not accept the login: $(tail -30 "$work/postgres-1.log")"
    return
  fi
  check_security postgres "$container_init" 65532
  local version
  version="$(query "$password" 'SELECT version()')"
  [[ "$version" == "PostgreSQL 15."* ]] && pass "postgres: password login over TCP: $version" \
    || fail "postgres: SELECT version() printed '$version'"
  [[ "$(query "$password" "SELECT count(*) FROM pg_database WHERE datname = '$database'")" == 1 \
    && "$(query "$password" 'SELECT current_database()')" == "$database" ]] \
    && pass "postgres: database $database exists" || fail "postgres: database $database is missing"
  local settings expected="300|C.UTF-8|C.UTF-8|UTF8|off|true|SCRAM|UTC|/var/run/postgresql"
  settings="$(query "$password" "SELECT current_setting('max_connections') || '|' || datcollate || '|' || datctype || '|' || pg_encoding_to_char(encoding) || '|' || current_setting('jit') || '|' \
    || (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) || '|' \
    || (SELECT left(rolpassword, 5) FROM pg_authid WHERE rolname = current_user) || '|' \
    || current_setting('TimeZone') || '|' || current_setting('unix_socket_directories') \
    FROM pg_database WHERE datname = current_database()")"
  [[ "$settings" == "$expected" ]] \
    && pass "postgres: max_connections=300 from the arguments, C.UTF-8, UTF8, jit off, SCRAM superuser $user, UTC, socket in /var/run/postgresql" \
    || fail "postgres: settings '$settings', expected '$expected'"
  if grep -E 'WARNING|not found|No such file' "$work/postgres-1.log"; then
    fail "postgres: the first start logged the warnings above"
  else
    pass "postgres: initdb and the first start logged no warnings"
  fi
  if query "wrong-password" 'SELECT 1' >/dev/null 2>&1; then
    fail "postgres: a wrong password was accepted"
  else
    pass "postgres: a wrong password is refused"
  fi
  query "$password" 'CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)' >/dev/null
  # The image's own clients, run through the entrypoint (a command instead of postgres options).
  local server_pid="$container_pid" server_init="$container_init" output
  container postgres "$work/postgres-clients.log" "ENV=PGPASSWORD=$password" -- "$entrypoint" sh -c \
    "pg_isready -h 127.0.0.1 -p $port && psql -XAtq -h 127.0.0.1 -p $port -U $user -d $database -c 'SELECT 6 * 7'"
  container_exit 30; output="$(cat "$work/postgres-clients.log")"
  [[ "$status" == 0 && "$output" == *"accepting connections"*42 ]] \
    && pass "postgres: the image's pg_isready and psql reach the server" \
    || fail "postgres: the image's clients: status $status: $output"
  container_pid="$server_pid" container_init="$server_init"
  # The image's stop signal with a client session open, as when a run's pods are deleted together: the server ends
  # the session rather than waiting for it (SIGTERM's smart shutdown would wait the session's 20 s).
  query "$password" 'SELECT pg_sleep(20)' >/dev/null 2>&1 &
  helpers+=($!)
  local waited=0
  until [[ "$(query "$password" "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'")" == 1 ]] \
    || (( waited >= 50 )); do sleep 0.1; waited=$((waited + 1)); done
  (( waited < 50 )) || fail "postgres: the client session for the shutdown check did not start within 5 s"
  kill -INT "$container_init"
  container_exit 5
  [[ "$status" == 0 ]] && grep -q 'database system is shut down' "$work/postgres-1.log" \
    && pass "postgres: fast shutdown on SIGINT within 5 s, a client session open, exit status 0" \
    || fail "postgres: after SIGINT with a session open: status $status: $(tail -5 "$work/postgres-1.log")"

  log "postgres: second start on the same volume, no password given"
  container postgres "$work/postgres-2.log" "${mounts[@]}" "ENV=POSTGRES_USER=$user" "ENV=POSTGRES_DB=$database" \
    -- "$entrypoint" "${args[@]}"
  if await_ready && [[ "$(query "$password" 'SELECT id FROM kept')" == 42 ]] \
    && ! grep -q 'creating the database cluster' "$work/postgres-2.log"; then
    pass "postgres: a restart keeps the cluster and its data"
  else
    fail "postgres: restart: $(tail -20 "$work/postgres-2.log")"
  fi
  kill -TERM "$container_init" 2>/dev/null || true
  container_exit 30
  [[ "$status" == 0 ]] && pass "postgres: smart shutdown on SIGTERM, exit status 0" \
    || fail "postgres: after SIGTERM: status $status"

  log "postgres: first start without a password"
  rm -rf --one-file-system "${work:?}/volume-data/"*
  container postgres "$work/postgres-version.log" "${mounts[@]}" -- "$entrypoint" --version
  container_exit 30; output="$(cat "$work/postgres-version.log")"
  [[ "$status" == 0 && "$output" == "postgres (PostgreSQL) 15."* ]] \
    && pass "postgres: --version needs no cluster: $output" || fail "postgres: --version: status $status: $output"

  container postgres "$work/postgres-3.log" "${mounts[@]}" -- "$entrypoint" "${args[@]}"
  container_exit 30
  [[ "$status" != 0 && "$status" != timeout ]] && grep -q 'no superuser password is set' "$work/postgres-3.log" \
    && pass "postgres: refuses to create a cluster without a password (status $status)" \
    || fail "postgres: without a password: status $status: $(cat "$work/postgres-3.log")"
}

for check in "${checks[@]}"; do
  "check_$check"
done
if (( failures > 0 )); then
  die "$failures image check(s) failed"
fi
log "all image checks passed: ${checks[*]}"
