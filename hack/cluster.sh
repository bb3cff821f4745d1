#!/usr/bin/env bash
# A real Kubernetes control plane for integration tests, on 127.0.0.1 only: etcd, kube-apiserver
# (client-certificate authentication, Node,RBAC authorization), kube-controller-manager,
# kube-scheduler and kwok, which fakes the kubelets of five nodes, one pool each:
#
#   stackbench-system-0   stackbench.dev/pool=system   no taint (operator, misc pods)
#   stackbench-target-0   stackbench.dev/pool=target   taint stackbench.dev/pool=target:NoSchedule
#   stackbench-backend-0  stackbench.dev/pool=backend  taint stackbench.dev/pool=backend:NoSchedule
#   stackbench-loadgen-0  stackbench.dev/pool=loadgen  taint stackbench.dev/pool=loadgen:NoSchedule
#   stackbench-loadgen-1  stackbench.dev/pool=loadgen  taint stackbench.dev/pool=loadgen:NoSchedule
#
# The scheduler really places pods, the controller manager really runs Deployments, Jobs and
# garbage collection, and kwok moves pods through their lifecycle (hack/cluster/kwok/README.md).
# k6-operator's TestRun CRD is installed from --third-party-crds so TestRuns meet its real schema.
#
# With --real-nodes the same four pools are real nodes instead (system, target, backend, loadgen: no second
# loadgen node): a kubelet and a containerd each, real containers, pods on a bridge in 198.18.0.0/16, kube-proxy
# and a cluster DNS; the target node's pods get a CPU of their own (hack/cluster/real-nodes.sh). Needs root.
# The API server then listens on 198.18.0.1, the bridge's address, so pods can reach it.
#
#   hack/cluster.sh up     [--dir DIR] [--third-party-crds DIR] [--owner-pid PID] [--real-nodes]
#   hack/cluster.sh status [--dir DIR]
#   hack/cluster.sh env    [--dir DIR]      prints `export KUBECONFIG=...`; use with eval
#   hack/cluster.sh load-images [--dir DIR] [POOL[,POOL...]=]TAR...
#                                           imports image tarballs into the real nodes, every node or only the
#                                           nodes of the pools named before "=" (system, target, backend, loadgen)
#   hack/cluster.sh down   [--dir DIR]      stops every process `up` started, undoes its changes, removes DIR
#   hack/cluster.sh leftovers               undoes what a real-node cluster whose processes were all killed left
#   hack/cluster.sh stop-kubelet  [--dir DIR] NODE   faults for tests on real nodes: a node's kubelet stopped (its
#   hack/cluster.sh start-kubelet [--dir DIR] NODE   pods' containers go on running) and started again
#   hack/cluster.sh restart-apiserver [--dir DIR]     the API server killed and started again on the same port
#
# DIR (default ${TMPDIR:-/tmp}/stackbench-cluster) holds the kubeconfig, certificates, etcd data,
# component logs (DIR/logs) and the pod log files kwok serves (DIR/pod-logs). With --owner-pid,
# the cluster takes itself down when that process exits, so a killed test run leaves no orphans.
# Needs the tools from hack/setup.sh (etcd kube kwok), openssl and curl.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/cluster/real-nodes.sh"

MARKER=".stackbench-cluster"
NODE_ANNOTATION="kwok.x-k8s.io/node=fake"
# Addresses. Services get ClusterIPs in 198.19.0.0/16, the range reserved for benchmarking. kwok's fake pods get
# loopback addresses: the API server refuses to proxy to loopback pod IPs, and anything that still connects to one
# stays on this machine, so a test never sends a packet towards the default route.
SERVICE_CIDR="198.19.0.0/16"
# Node health. kwok renews each node's Lease every NODE_LEASE_SECONDS/4 like a kubelet; the stock
# heartbeat Stage we use only patches node status every few minutes and counts on those leases.
# Without them the node lifecycle controller sees a silent node after its 50 s default grace,
# marks it NotReady and sets every pod on it to Ready=False for good (kwok readies a pod only
# once). The longer grace keeps a fake node Ready while k6 and the JVMs starve kwok of CPU on a
# two-core machine.
NODE_LEASE_SECONDS=40
NODE_MONITOR_GRACE="3m"
POD_CIDR="127.244.0.0/16"
# The API server's address: loopback, or the real nodes' bridge (pods must reach it).
API_ADDRESS="127.0.0.1"

usage() {
  sed -n '/^#   hack\/cluster.sh/s/^#   //p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# Arguments and tools

parse_args() {
  COMMAND="${1:-}"
  [[ -n "$COMMAND" ]] || usage
  shift
  DIR="${TMPDIR:-/tmp}/stackbench-cluster"
  THIRD_PARTY_CRDS="$STACKBENCH_ROOT/../shared/third-party-crds"
  OWNER_PID=""
  REAL_NODES_WANTED=0
  IMAGE_TARS=()
  while (( $# > 0 )); do
    case "$1" in
      --dir) DIR="${2:?--dir needs a directory}"; shift 2 ;;
      --dir=*) DIR="${1#*=}"; shift ;;
      --third-party-crds) THIRD_PARTY_CRDS="${2:?--third-party-crds needs a directory}"; shift 2 ;;
      --third-party-crds=*) THIRD_PARTY_CRDS="${1#*=}"; shift ;;
      --owner-pid) OWNER_PID="${2:?--owner-pid needs a process id}"; shift 2 ;;
      --owner-pid=*) OWNER_PID="${1#*=}"; shift ;;
      --real-nodes) REAL_NODES_WANTED=1; shift ;;
      -h|--help) usage ;;
      -*) die "unknown argument '$1'; run hack/cluster.sh --help" ;;
      *)
        [[ "$COMMAND" == load-images || "$COMMAND" == *-kubelet ]] || die "unexpected argument '$1'; run hack/cluster.sh --help"
        IMAGE_TARS+=("$1"); shift ;;
    esac
  done
  mkdir -p "$(dirname "$DIR")"
  local parent
  parent="$(cd "$(dirname "$DIR")" && pwd)"
  DIR="${parent%/}/$(basename "$DIR")"
}

load_tools() {
  # hack/setup.sh records where it put the tools; explicit environment variables win.
  local env_file="$STACKBENCH_TOOLS/env.sh" saved
  if [[ -f "$env_file" ]]; then
    saved="$(export -p | grep -E '^declare -x STACKBENCH_(ETCD|KUBE_BIN|KUBECTL|KWOK|CONTAINERD_BIN|CNI_BIN|COREDNS)=' || true)"
    # shellcheck source=/dev/null
    source "$env_file"
    eval "$saved"
  fi
  local missing=()
  [[ -x "${STACKBENCH_ETCD:-}" ]] || missing+=(etcd)
  for c in kube-apiserver kube-controller-manager kube-scheduler; do
    [[ -x "${STACKBENCH_KUBE_BIN:-}/$c" ]] || { missing+=(kube); break; }
  done
  [[ -x "${STACKBENCH_KUBECTL:-}" ]] || missing+=(kubectl)
  [[ -x "${STACKBENCH_KWOK:-}" ]] || missing+=(kwok)
  KWOK_DATA="$(dirname "${STACKBENCH_KWOK:-/nonexistent}")/kustomize"
  [[ -d "$KWOK_DATA/stage" && -d "$KWOK_DATA/crd/bases" ]] || missing+=(kwok-data)
  if (( ${#missing[@]} > 0 )); then
    die "missing test-cluster tools (${missing[*]}): run hack/setup.sh (or hack/setup.sh etcd kube kwok) first"
  fi
  command -v openssl >/dev/null 2>&1 || die "openssl is needed to create the cluster's certificates: apt-get install openssl"
  command -v curl >/dev/null 2>&1 || die "curl is needed to probe the cluster's health endpoints: apt-get install curl"
  command -v setsid >/dev/null 2>&1 || die "setsid (util-linux) is needed to detach the cluster processes"
  (( ! REAL_NODES_WANTED )) || real_nodes_load_tools
}

kubectl_admin() { "$STACKBENCH_KUBECTL" --kubeconfig "$DIR/kubeconfig" "$@"; }

# ---------------------------------------------------------------------------------------------
# Ports: every component gets a free port on 127.0.0.1, so several clusters (one per test JVM or
# developer) can run side by side.

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {
  local name port chosen=" "
  for name in ETCD_CLIENT_PORT ETCD_PEER_PORT APISERVER_PORT CONTROLLER_MANAGER_PORT SCHEDULER_PORT KWOK_PORT \
      KUBE_PROXY_HEALTH_PORT KUBE_PROXY_METRICS_PORT; do
    while :; do
      # Below the usual ephemeral range (32768+) so outgoing connections do not collide.
      port=$(( 20000 + RANDOM % 12000 ))
      [[ "$chosen" == *" $port "* ]] && continue
      port_taken "$port" && continue
      break
    done
    chosen+="$port "
    printf -v "$name" '%s' "$port"
  done
}

# ---------------------------------------------------------------------------------------------
# Certificates and kubeconfigs

# EC keys are quick to make; the admin key is RSA because Java clients (fabric8) read only RSA keys
# without extra security providers.
new_key() {
  if [[ "${2:-ec}" == rsa ]]; then
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null
  else
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null
  fi
}

# new_cert NAME SUBJECT EXTENSIONS [KEY_TYPE]: a certificate signed by the cluster CA.
new_cert() {
  local pki="$DIR/pki"
  new_key "$pki/$1.key" "${4:-ec}"
  openssl req -new -key "$pki/$1.key" -subj "$2" 2>/dev/null \
    | openssl x509 -req -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -days 30 \
        -set_serial "0x$(printf '%s' "$1" | md5sum | cut -c1-16)" \
        -out "$pki/$1.crt" -extfile <(printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n%s\n' "$3") \
        2>/dev/null
}

create_pki() {
  local pki="$DIR/pki" pid pids=()
  mkdir -p "$pki"
  new_key "$pki/ca.key"
  openssl req -x509 -new -key "$pki/ca.key" -subj "/CN=stackbench-test-cluster-ca" -days 30 -out "$pki/ca.crt" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    2>/dev/null
  # The leaf certificates are independent of each other: made in parallel, they cost one RSA key.
  new_cert apiserver "/CN=kube-apiserver" \
    "extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:198.19.0.1,IP:198.18.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" &
  pids+=($!)
  # One serving certificate for the controller manager's and the scheduler's health endpoints.
  new_cert components "/CN=stackbench-test-cluster-components" \
    "extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost" &
  pids+=($!)
  # system:masters is the admin group; the component identities get their bootstrap RBAC roles.
  new_cert admin "/O=system:masters/CN=stackbench-admin" "extendedKeyUsage=clientAuth" rsa &
  pids+=($!)
  new_cert controller-manager "/CN=system:kube-controller-manager" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  new_cert scheduler "/CN=system:kube-scheduler" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  # kwok plays every kubelet and writes node and pod status for all of them, which the Node
  # authorizer would confine to one node per identity; it runs as an administrator instead.
  new_cert kwok "/O=system:masters/CN=kwok" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  new_cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  { new_key "$pki/service-account.key" \
      && openssl pkey -in "$pki/service-account.key" -pubout -out "$pki/service-account.pub" 2>/dev/null; } &
  pids+=($!)
  for pid in "${pids[@]}"; do
    wait "$pid" || die "creating the cluster's keys and certificates with openssl failed (run with bash -x for details)"
  done
  chmod 600 "$pki"/*.key
}

# write_kubeconfig FILE CERT_NAME
write_kubeconfig() {
  local pki="$DIR/pki"
  cat > "$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: stackbench
  cluster:
    server: https://$API_ADDRESS:$APISERVER_PORT
    certificate-authority-data: $(base64 -w0 < "$pki/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 < "$pki/$2.crt")
    client-key-data: $(base64 -w0 < "$pki/$2.key")
contexts:
- name: stackbench
  context:
    cluster: stackbench
    user: $2
current-context: stackbench
EOF
  chmod 600 "$1"
}

# ---------------------------------------------------------------------------------------------
# Processes

# start NAME COMMAND...: runs COMMAND detached (own session, so a Ctrl-C in the calling terminal or
# the end of the calling process does not take it down), logging to DIR/logs/NAME.log.
start() {
  local name="$1"; shift
  setsid "$@" > "$DIR/logs/$name.log" 2>&1 < /dev/null &
  echo "$name $!" >> "$DIR/pids"
}

pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$DIR/pids" 2>/dev/null | tail -1; }

# Ours only if the process still runs and its command line names DIR: a recycled pid is left alone.
is_ours() {
  [[ -n "$1" && -r "/proc/$1/cmdline" ]] && tr '\0' ' ' < "/proc/$1/cmdline" | grep -qF -- "$DIR"
}

fail_with_log() {
  local name="$1" message="$2"
  if [[ -f "$DIR/logs/$name.log" ]]; then
    log "last lines of $DIR/logs/$name.log:"
    tail -n 25 "$DIR/logs/$name.log" >&2 || true
  fi
  die "$message"
}

# wait_until NAME SECONDS DESCRIPTION COMMAND...: polls COMMAND; fails early if NAME died.
wait_until() {
  local name="$1" seconds="$2" what="$3"; shift 3
  local deadline=$(( SECONDS + seconds )) pid
  pid="$(pid_of "$name")"
  until "$@" >/dev/null 2>&1; do
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      fail_with_log "$name" "$name exited while waiting for $what; see $DIR/logs/$name.log"
    fi
    (( SECONDS < deadline )) || fail_with_log "$name" "timed out after ${seconds}s waiting for $what; see $DIR/logs/$name.log"
    sleep 0.2
  done
}

healthy() {
  curl -sf --max-time 2 --cacert "$DIR/pki/ca.crt" --cert "$DIR/pki/admin.crt" --key "$DIR/pki/admin.key" "$1" \
    | grep -qx ok
}

# ---------------------------------------------------------------------------------------------
# Components

start_etcd() {
  local url_client="http://127.0.0.1:$ETCD_CLIENT_PORT" url_peer="http://127.0.0.1:$ETCD_PEER_PORT"
  # No fsync: the data is thrown away with DIR, and fsync on a shared disk is what makes etcd slow.
  start etcd "$STACKBENCH_ETCD" --name stackbench --data-dir "$DIR/etcd" \
    --listen-client-urls "$url_client" --advertise-client-urls "$url_client" \
    --listen-peer-urls "$url_peer" --initial-advertise-peer-urls "$url_peer" \
    --initial-cluster "stackbench=$url_peer" --initial-cluster-state new \
    --unsafe-no-fsync --log-level warn
}

start_apiserver() {
  local pki="$DIR/pki"
  start kube-apiserver "$STACKBENCH_KUBE_BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --bind-address "$API_ADDRESS" --advertise-address "$API_ADDRESS" --secure-port "$APISERVER_PORT" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --client-ca-file "$pki/ca.crt" \
    --authorization-mode Node,RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$pki/service-account.pub" \
    --service-account-signing-key-file "$pki/service-account.key" \
    --service-cluster-ip-range "$SERVICE_CIDR" \
    --allow-privileged=true \
    --kubelet-preferred-address-types InternalIP \
    --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
    --profiling=false
}

start_controller_manager() {
  local pki="$DIR/pki" kubeconfig="$DIR/kubeconfigs/controller-manager.kubeconfig"
  start kube-controller-manager "$STACKBENCH_KUBE_BIN/kube-controller-manager" \
    --kubeconfig "$kubeconfig" --authentication-kubeconfig "$kubeconfig" --authorization-kubeconfig "$kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$CONTROLLER_MANAGER_PORT" \
    --leader-elect=false \
    --use-service-account-credentials=true \
    --service-account-private-key-file "$pki/service-account.key" \
    --root-ca-file "$pki/ca.crt" \
    --cluster-signing-cert-file "$pki/ca.crt" --cluster-signing-key-file "$pki/ca.key" \
    --service-cluster-ip-range "$SERVICE_CIDR" \
    --node-monitor-grace-period "$NODE_MONITOR_GRACE" \
    --tls-cert-file "$pki/components.crt" --tls-private-key-file "$pki/components.key" \
    --profiling=false
}

start_scheduler() {
  local pki="$DIR/pki" kubeconfig="$DIR/kubeconfigs/scheduler.kubeconfig"
  start kube-scheduler "$STACKBENCH_KUBE_BIN/kube-scheduler" \
    --kubeconfig "$kubeconfig" --authentication-kubeconfig "$kubeconfig" --authorization-kubeconfig "$kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT" \
    --leader-elect=false \
    --tls-cert-file "$pki/components.crt" --tls-private-key-file "$pki/components.key" \
    --profiling=false
}

start_kwok() {
  local stages="$KWOK_DATA/stage"
  # kwok also reads ~/.kwok/kwok.yaml when it exists; a HOME of its own keeps the host's out.
  mkdir -p "$DIR/kwok"
  # Nodes advertise 127.0.0.1:KWOK_PORT as their kubelet, so `kubectl logs` goes apiserver ->
  # kwok's kubelet API on 127.0.0.1 -> the file a Logs/ClusterLogs object names.
  start kwok env HOME="$DIR/kwok" "$STACKBENCH_KWOK" \
    --kubeconfig "$DIR/kubeconfigs/kwok.kubeconfig" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector "$NODE_ANNOTATION" \
    --node-ip 127.0.0.1 --node-port "$KWOK_PORT" --server-address "127.0.0.1:$KWOK_PORT" \
    --cidr "$POD_CIDR" \
    --enable-crds Logs,ClusterLogs \
    --node-lease-duration-seconds "$NODE_LEASE_SECONDS" \
    --config "$stages/node/fast/node-initialize.yaml" \
    --config "$stages/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml" \
    --config "$stages/pod/fast/pod-ready.yaml" \
    --config "$stages/pod/fast/pod-delete.yaml" \
    --config "$STACKBENCH_ROOT/hack/cluster/kwok/pod-exit.yaml"
}

nodes_manifest() {
  local node pool taint
  for node in system-0 target-0 backend-0 loadgen-0 loadgen-1; do
    pool="${node%-*}"
    taint=""
    if [[ "$pool" != system ]]; then
      taint="  taints:
  - key: stackbench.dev/pool
    value: $pool
    effect: NoSchedule"
    fi
    cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: stackbench-$node
  annotations:
    ${NODE_ANNOTATION%%=*}: ${NODE_ANNOTATION#*=}
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    kubernetes.io/hostname: stackbench-$node
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    type: kwok
    stackbench.dev/pool: $pool
spec:
$taint
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110", ephemeral-storage: 100Gi}
  capacity: {cpu: "8", memory: 32Gi, pods: "110", ephemeral-storage: 100Gi}
EOF
  done
}

write_env_file() {
  cat > "$DIR/cluster.env" <<EOF
KUBECONFIG=$DIR/kubeconfig
STACKBENCH_CLUSTER_API_URL=https://$API_ADDRESS:$APISERVER_PORT
STACKBENCH_CLUSTER_POD_LOGS=$DIR/pod-logs
STACKBENCH_CLUSTER_LOGS=$DIR/logs
STACKBENCH_CLUSTER_ETCD_URL=http://127.0.0.1:$ETCD_CLIENT_PORT
STACKBENCH_CLUSTER_KWOK_PORT=$KWOK_PORT
STACKBENCH_CLUSTER_CONTROLLER_MANAGER_PORT=$CONTROLLER_MANAGER_PORT
STACKBENCH_CLUSTER_SCHEDULER_PORT=$SCHEDULER_PORT
STACKBENCH_CLUSTER_REAL_NODES=$REAL_NODES_WANTED
EOF
}

# ---------------------------------------------------------------------------------------------
# Commands

cmd_up() {
  local testruns="$THIRD_PARTY_CRDS/k6.io_testruns.yaml"
  [[ -f "$testruns" ]] || die "k6-operator's TestRun CRD not found at $testruns: pass --third-party-crds DIR (the directory holding k6.io_testruns.yaml)"
  [[ -z "$OWNER_PID" ]] || kill -0 "$OWNER_PID" 2>/dev/null || die "--owner-pid $OWNER_PID is not a running process"
  if [[ -e "$DIR" ]]; then
    if [[ -f "$DIR/$MARKER" ]]; then
      die "a test cluster already uses $DIR: run 'hack/cluster.sh down --dir $DIR' first, or pick another --dir"
    fi
    [[ -z "$(ls -A "$DIR")" ]] || die "$DIR exists and is not empty: pass an empty or new --dir"
  fi
  load_tools
  local began=$SECONDS
  mkdir -p "$DIR"/{logs,pod-logs,kubeconfigs}
  echo "stackbench test cluster; remove with: hack/cluster.sh down --dir $DIR" > "$DIR/$MARKER"
  : > "$DIR/pids"
  # A failed or interrupted start leaves nothing behind.
  UP_COMPLETE=0
  trap '(( UP_COMPLETE )) || { log "start failed; stopping what was started"; cmd_down_quiet; }' EXIT
  trap 'exit 130' INT TERM

  pick_ports
  if (( REAL_NODES_WANTED )); then
    # The pause image every pod's sandbox runs; built offline (cached) before anything on the machine changes.
    "$STACKBENCH_ROOT/hack/image-base/node-images.sh" "$DIR/images" > "$DIR/logs/node-images.log" 2>&1 \
      || fail_with_log node-images "building the node images (hack/image-base/node-images.sh) failed"
    REAL_PAUSE_TAR="$DIR/images/pause.tar"
    REAL_PAUSE_IMAGE="$(image_reference "$REAL_PAUSE_TAR")"
    real_host_begin
    real_network_up
    real_cgroups_up
    API_ADDRESS="$REAL_HOST_IP"
  fi
  create_pki
  (( ! REAL_NODES_WANTED )) || real_pki
  write_kubeconfig "$DIR/kubeconfig" admin
  write_kubeconfig "$DIR/kubeconfigs/controller-manager.kubeconfig" controller-manager
  write_kubeconfig "$DIR/kubeconfigs/scheduler.kubeconfig" scheduler
  write_kubeconfig "$DIR/kubeconfigs/kwok.kubeconfig" kwok
  write_env_file
  (( ! REAL_NODES_WANTED )) || echo "real nodes: hack/cluster.sh down --dir $DIR also undoes the machine changes in $DIR/host/changes" >> "$DIR/$MARKER"

  if [[ -n "$OWNER_PID" ]]; then
    start owner-watch "$BASH" "${BASH_SOURCE[0]}" _watch --dir "$DIR" --owner-pid "$OWNER_PID"
  fi
  start_etcd
  start_apiserver
  wait_until etcd 30 "etcd on 127.0.0.1:$ETCD_CLIENT_PORT" \
    curl -sf --max-time 2 "http://127.0.0.1:$ETCD_CLIENT_PORT/health"
  wait_until kube-apiserver 90 "kube-apiserver on $API_ADDRESS:$APISERVER_PORT to be ready" \
    healthy "https://$API_ADDRESS:$APISERVER_PORT/readyz"
  start_controller_manager
  start_scheduler

  if (( REAL_NODES_WANTED )); then
    # k6-operator's TestRun CRD comes with k6-operator (its chart owns it), as on any cluster.
    real_api_objects | kubectl_admin apply --server-side --field-manager stackbench-test-cluster -f - \
      > "$DIR/logs/apply.log" 2>&1 || fail_with_log apply "creating the cluster DNS Service and its RBAC failed"
  else
    # kwok watches Logs/ClusterLogs objects, so their CRDs must exist before it starts.
    { nodes_manifest; cat "$KWOK_DATA/crd/bases/kwok.x-k8s.io_logs.yaml"; echo "---";
      cat "$KWOK_DATA/crd/bases/kwok.x-k8s.io_clusterlogs.yaml"; echo "---"; cat "$testruns"; } \
      | kubectl_admin apply --server-side --field-manager stackbench-test-cluster -f - > "$DIR/logs/apply.log" 2>&1 \
      || fail_with_log apply "installing the nodes and CRDs failed"
    # kubectl wait fails at once (instead of waiting) while a new CRD has no conditions yet.
    wait_until kube-apiserver 60 "the CRDs to be Established" \
      kubectl_admin wait --for condition=Established --timeout 5s \
      crd/logs.kwok.x-k8s.io crd/clusterlogs.kwok.x-k8s.io crd/testruns.k6.io
  fi
  if (( REAL_NODES_WANTED )); then
    real_nodes_start
    real_nodes_wait
  else
    start_kwok
    wait_until kwok 60 "kwok to make every node Ready" \
      kubectl_admin wait --for condition=Ready --timeout 1s node --all
  fi
  wait_until kube-controller-manager 60 "the default ServiceAccount (created by kube-controller-manager)" \
    kubectl_admin get serviceaccount default --namespace default
  wait_until kube-scheduler 60 "kube-scheduler to be healthy" \
    healthy "https://127.0.0.1:$SCHEDULER_PORT/healthz"
  wait_until kube-controller-manager 60 "kube-controller-manager to be healthy" \
    healthy "https://127.0.0.1:$CONTROLLER_MANAGER_PORT/healthz"
  UP_COMPLETE=1
  trap - INT TERM
  log "test cluster up in $((SECONDS - began))s$( (( REAL_NODES_WANTED )) && echo ' with real nodes'): API https://$API_ADDRESS:$APISERVER_PORT, kubeconfig $DIR/kubeconfig"
  log "use it with: eval \"\$(hack/cluster.sh env --dir $DIR)\"; stop it with: hack/cluster.sh down --dir $DIR"
}

# Stops the processes listed in DIR/pids, newest first, then removes DIR. One at a time: clients
# (kwok, scheduler, controller manager) before the API server before etcd, because an API server
# that loses etcd while shutting down hangs until it is killed.
cmd_down_quiet() {
  [[ -f "$DIR/$MARKER" ]] || return 0
  local name pid pids=() deadline
  # The owner watcher goes first, so it does not race this teardown.
  pid="$(pid_of owner-watch)"
  if [[ -n "$pid" && "$pid" != "$$" ]] && is_ours "$pid"; then kill -TERM "$pid" 2>/dev/null || true; fi
  if [[ -f "$DIR/pids" ]]; then
    while read -r name pid; do
      [[ "$name" == owner-watch || "$pid" == "$$" ]] && continue
      pids=("$pid" "${pids[@]}")
    done < "$DIR/pids"
  fi
  for pid in "${pids[@]}"; do
    is_ours "$pid" || continue
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$(( SECONDS + 10 ))
    while is_ours "$pid" && (( SECONDS < deadline )); do sleep 0.1; done
    if is_ours "$pid"; then
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    fi
  done
  real_nodes_teardown
  # Never delete through a mount that is still there (a pod's hostPath, a container's root filesystem).
  if awk -v d="$DIR/" 'index($5, d) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
    log "mounts under $DIR are still there; not removing it. Unmount them, then run hack/cluster.sh down --dir $DIR again:"
    awk -v d="$DIR/" 'index($5, d) == 1 { print "  " $5 }' /proc/self/mountinfo >&2
    return 1
  fi
  rm -rf "$DIR"
}

cmd_down() {
  if [[ ! -e "$DIR" ]]; then
    log "no test cluster at $DIR"
    return 0
  fi
  [[ -f "$DIR/$MARKER" ]] || die "$DIR was not created by hack/cluster.sh up (no $MARKER file); not touching it"
  cmd_down_quiet
  log "test cluster at $DIR stopped and removed"
}

cmd_status() {
  [[ -f "$DIR/$MARKER" ]] || die "no test cluster at $DIR: start one with hack/cluster.sh up --dir $DIR"
  local name pid state failed=0
  while read -r name pid; do
    if is_ours "$pid"; then state="running"; else state="NOT RUNNING"; failed=1; fi
    printf '%-24s pid %-8s %s\n' "$name" "$pid" "$state"
  done < "$DIR/pids"
  # shellcheck source=/dev/null
  source "$DIR/cluster.env"
  if healthy "$STACKBENCH_CLUSTER_API_URL/readyz"; then
    printf '%-24s %s\n' "api" "ready at $STACKBENCH_CLUSTER_API_URL"
  else
    printf '%-24s %s\n' "api" "NOT READY at $STACKBENCH_CLUSTER_API_URL"
    failed=1
  fi
  printf '%-24s %s\n' "kubeconfig" "$DIR/kubeconfig"
  return "$failed"
}

cmd_load_images() {
  [[ -f "$DIR/$MARKER" ]] || die "no test cluster at $DIR: start one with hack/cluster.sh up --real-nodes --dir $DIR"
  # shellcheck source=/dev/null
  source "$DIR/cluster.env"
  (( STACKBENCH_CLUSTER_REAL_NODES )) || die "the test cluster at $DIR has kwok nodes, which run no images: start it with --real-nodes"
  (( ${#IMAGE_TARS[@]} > 0 )) || die "name the image tarballs to import, e.g. hack/cluster.sh load-images --dir $DIR operator/target/images/*.tar"
  REAL_NODES_WANTED=1
  load_tools
  local began=$SECONDS
  real_import_images "${IMAGE_TARS[@]}"
  log "imported ${#IMAGE_TARS[@]} image(s) into the nodes of their pools in $((SECONDS - began))s"
}

# image_reference TAR: the first name a `docker save` tarball gives its image, as containerd names it.
image_reference() {
  python3 - "$1" <<'PY' || die "cannot read the image name from $1"
import json, sys, tarfile
with tarfile.open(sys.argv[1]) as tar:
    tag = json.load(tar.extractfile("manifest.json"))[0]["RepoTags"][0]
first = tag.split("/")[0]
if "/" not in tag or ("." not in first and ":" not in first and first != "localhost"):
    tag = "docker.io/" + (tag if "/" in tag else "library/" + tag)
print(tag)
PY
}

# The cluster of DIR, running, with its ports read back from DIR/cluster.env; real nodes if $1 is "real".
running_cluster() {
  [[ -f "$DIR/$MARKER" ]] || die "no test cluster at $DIR: start one with hack/cluster.sh up --real-nodes --dir $DIR"
  # shellcheck source=/dev/null
  source "$DIR/cluster.env"
  if [[ "${1:-}" == real ]]; then
    (( STACKBENCH_CLUSTER_REAL_NODES )) || die "the test cluster at $DIR has kwok nodes, which have no kubelet of their own: start it with --real-nodes"
    REAL_NODES_WANTED=1
  fi
  load_tools
}

# cmd_kubelet stop|start: the first positional argument names the node.
cmd_kubelet() {
  running_cluster real
  (( ${#IMAGE_TARS[@]} == 1 )) || die "name one node, e.g. hack/cluster.sh $COMMAND --dir $DIR stackbench-target-0"
  if [[ "$1" == stop ]]; then real_kubelet_stop "${IMAGE_TARS[0]}"; else real_kubelet_restart "${IMAGE_TARS[0]}"; fi
}

# Kills the API server (SIGKILL, as a crash: a SIGTERM makes it wait up to a minute for open requests) and starts it
# again with the same flags and port; returns once it is ready. Clients see their connections and watches break and
# their requests refused meanwhile.
cmd_restart_apiserver() {
  running_cluster
  local pid deadline url
  url="$STACKBENCH_CLUSTER_API_URL"
  API_ADDRESS="$(sed -E 's#https://([^:]+):.*#\1#' <<< "$url")"
  APISERVER_PORT="${url##*:}"
  ETCD_CLIENT_PORT="${STACKBENCH_CLUSTER_ETCD_URL##*:}"
  pid="$(pid_of kube-apiserver)"
  is_ours "$pid" || die "the API server of the cluster at $DIR is not running (see hack/cluster.sh status --dir $DIR)"
  kill -KILL "$pid"
  # Gone, not only dying: a process whose command line reads empty may still hold its listening socket.
  deadline=$(( SECONDS + 15 ))
  while { [[ -e "/proc/$pid" ]] || (exec 3<>"/dev/tcp/$API_ADDRESS/$APISERVER_PORT") 2>/dev/null; } \
      && (( SECONDS < deadline )); do
    sleep 0.1
  done
  mv "$DIR/logs/kube-apiserver.log" "$DIR/logs/kube-apiserver.$pid.log"
  start_apiserver
  wait_until kube-apiserver 90 "kube-apiserver on $API_ADDRESS:$APISERVER_PORT to be ready again" \
    healthy "$url/readyz"
  log "restarted the API server (pid $pid, now $(pid_of kube-apiserver))"
}

cmd_env() {
  [[ -f "$DIR/$MARKER" ]] || die "no test cluster at $DIR: start one with hack/cluster.sh up --dir $DIR"
  printf "export KUBECONFIG='%s'\n" "$DIR/kubeconfig"
}

# Internal: takes the cluster down once the owning process (a test JVM) is gone.
cmd_watch() {
  [[ -n "$OWNER_PID" ]] || die "_watch needs --owner-pid"
  while kill -0 "$OWNER_PID" 2>/dev/null && [[ -f "$DIR/$MARKER" ]]; do sleep 1; done
  log "owner process $OWNER_PID is gone; stopping the test cluster at $DIR"
  cmd_down_quiet
}

parse_args "$@"
case "$COMMAND" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  load-images) cmd_load_images ;;
  leftovers) real_remove_leftover ;;
  stop-kubelet) cmd_kubelet stop ;;
  start-kubelet) cmd_kubelet start ;;
  restart-apiserver) cmd_restart_apiserver ;;
  _watch) cmd_watch ;;
  *) usage ;;
esac
