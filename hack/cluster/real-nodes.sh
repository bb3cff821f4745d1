# Real worker nodes for the test cluster (hack/cluster.sh up --real-nodes): one kubelet and one containerd per
# node, pods in network namespaces on one bridge, one kube-proxy, one NetworkPolicy enforcer and a cluster DNS.
# Sourced by hack/cluster.sh after lib.sh; uses its DIR, start, wait_until, new_cert, write_kubeconfig and
# kubectl_admin.
#
# Layout on this machine (nothing is routed anywhere else: pods have no default route, nothing masquerades and
# the DNS server has no upstream):
#
#   bridge stackbench0       198.18.0.1/16   the control plane's address (API server, cluster DNS)
#   node NAME (index i)      198.18.0.1i     kubelet, its own containerd, pods in 198.18.i.0/24 (gateway 198.18.i.1)
#   Services                 198.19.0.0/16   kube-proxy (iptables mode), DNS at 198.19.0.10
#   NetworkPolicy                            kube-router's network policy controller (iptables, ip sets), one for
#                                            the four nodes (hack/cluster/kube-router/main.go); traffic from this
#                                            machine's own addresses to a pod (kubelet probes, the API server's pod
#                                            proxy) is always allowed, as kube-router does for a pod's own node
#
# CPUs: the target node's pods get the last CPU to themselves (a cpuset cgroup parent) and it advertises one CPU;
# every other node's pods share CPU 0, and those nodes advertise the machine's CPUs (as kind's nodes do), so a run's
# default sizes (2 CPUs for the delay service and each k6 runner) fit. The cluster's own processes (API server,
# etcd, kubelets, containerds...) are not pinned: confined to CPU 0 with every pod but the target's, the kubelets'
# probes timed out under load and took Ready pods out of their Services.
#
# Every change to the machine outside DIR is recorded in DIR/host/ before it is made, and undone by
# real_nodes_teardown, which also runs after a failed start: sysctls, the bridge, the node cgroups, mounts,
# network namespaces, iptables chains, kubelet's /var/log/containers links.

REAL_BRIDGE="stackbench0"
REAL_BRIDGE_MAC="02:5b:00:00:00:01"   # locally administered (bit 1 of the first octet), never a vendor's
REAL_HOST_IP="198.18.0.1"
REAL_POD_RANGE="198.18.0.0/16"
REAL_SERVICE_RANGE="198.19.0.0/16"
REAL_DNS_IP="198.19.0.10"
REAL_CLUSTER_DOMAIN="cluster.local"
# Only one real-node cluster may run at a time (the bridge and the addresses are fixed); this file names its DIR.
REAL_LOCK="/run/stackbench-real-nodes"
# name pool index; the target node gets the last CPU, the others CPU 0.
REAL_NODES=(
  "stackbench-system-0 system 1"
  "stackbench-target-0 target 2"
  "stackbench-backend-0 backend 3"
  "stackbench-loadgen-0 loadgen 4"
)
# Kernel settings kubelet, kube-proxy and the NetworkPolicy enforcer change (or may change, with other settings),
# and the forwarding the pod network needs: saved at start, restored at teardown, compared by host-state.sh.
# kube-proxy sets the nf_conntrack ones at start whatever `conntrack: {maxPerCore: 0, min: 0}` says (its TCP
# timeouts default to 24 h and 1 h, the kernel's to 5 days and 60 s); real_kube_proxy_config tells it to leave
# them, and they are restored anyway should a kube-proxy version think otherwise.
REAL_SYSCTLS=(
  net.ipv4.ip_forward
  net.bridge.bridge-nf-call-iptables
  net.bridge.bridge-nf-call-ip6tables
  net.ipv4.conf.all.route_localnet
  net.netfilter.nf_conntrack_max
  net.netfilter.nf_conntrack_tcp_timeout_established
  net.netfilter.nf_conntrack_tcp_timeout_close_wait
  net.netfilter.nf_conntrack_tcp_be_liberal
  net.netfilter.nf_conntrack_udp_timeout
  net.netfilter.nf_conntrack_udp_timeout_stream
  vm.overcommit_memory
  vm.panic_on_oom
  kernel.panic
  kernel.panic_on_oops
  kernel.keys.root_maxkeys
  kernel.keys.root_maxbytes
)
# The v1 cgroup hierarchies kubelet creates pod cgroups in (hybrid cgroup v1 on this machine).
REAL_CGROUP_CONTROLLERS=(cpu cpuacct cpuset memory devices freezer blkio pids systemd hugetlb net_cls net_prio perf_event)

real_node_ip() { printf '198.18.0.1%s' "$1"; }

real_node_dir() { printf '%s/nodes/%s' "$DIR" "$1"; }

# The CPUs of a pool's nodes: the target pool gets the last CPU, everything else CPU 0.
real_node_cpus() {
  local pool="$1" last
  last=$(( $(nproc) - 1 ))
  if [[ "$pool" == target ]]; then printf '%s' "$last"; else printf '0'; fi
}

real_nodes_load_tools() {
  local missing=() c
  [[ "$(id -u)" == 0 ]] || die "real nodes need root (network namespaces, cgroups, a bridge, iptables): run hack/cluster.sh up --real-nodes as root"
  for c in kubelet kube-proxy; do
    [[ -x "${STACKBENCH_KUBE_BIN:-}/$c" ]] || missing+=("kube ($c)")
  done
  for c in containerd containerd-shim-runc-v2 ctr runc; do
    [[ -x "${STACKBENCH_CONTAINERD_BIN:-}/$c" ]] || { missing+=(containerd); break; }
  done
  for c in bridge host-local loopback portmap; do
    [[ -x "${STACKBENCH_CNI_BIN:-}/$c" ]] || { missing+=(cni-plugins); break; }
  done
  [[ -x "${STACKBENCH_COREDNS:-}" ]] || missing+=(coredns)
  [[ -x "${STACKBENCH_KUBE_ROUTER:-}" ]] || missing+=(kube-router)
  if (( ${#missing[@]} > 0 )); then
    die "missing real-node tools (${missing[*]}): run hack/setup.sh (or hack/setup.sh kube containerd cni-plugins coredns kube-router) first"
  fi
  for c in ip iptables iptables-save ip6tables conntrack ipset taskset mountpoint; do
    command -v "$c" >/dev/null 2>&1 \
      || die "$c is needed for real nodes: run hack/setup.sh as root (it installs iptables, conntrack and ipset), or apt-get install iproute2 iptables conntrack ipset util-linux"
  done
  [[ -d /sys/fs/cgroup/cpuset ]] \
    || die "real nodes need the cgroup v1 cpuset hierarchy at /sys/fs/cgroup/cpuset (this machine has hybrid cgroup v1)"
  (( $(nproc) >= 2 )) || die "real nodes need at least 2 CPUs: one for the target pool, one for everything else"
}

# ---------------------------------------------------------------------------------------------
# The record of host changes

real_record() { printf '%s\n' "$*" >> "$DIR/host/changes"; }

# real_cluster_alive DIR: true if any process recorded in DIR/pids still runs with DIR on its command line.
real_cluster_alive() {
  local other="$1" name pid
  [[ -f "$other/pids" ]] || return 1
  while read -r name pid; do
    [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$other" && return 0
  done < "$other/pids"
  return 1
}

# real_remove_leftover: if the lock names a real-node cluster none of whose processes runs any more (the machine
# or its owner was killed), undoes what it recorded. A live cluster is left alone; prints what it found.
real_remove_leftover() {
  [[ -e "$REAL_LOCK" ]] || return 0
  local other
  other="$(cat "$REAL_LOCK" 2>/dev/null || true)"
  if [[ -n "$other" && -f "$other/$MARKER" ]] && ! real_cluster_alive "$other"; then
    log "a real-node test cluster at $other has no process left; removing its leftovers"
    bash "${BASH_SOURCE[0]%/*}/../cluster.sh" down --dir "$other" >&2 \
      || die "could not remove the leftover real-node cluster at $other; run hack/cluster.sh down --dir $other and read its output"
  elif [[ -n "$other" && -f "$other/$MARKER" ]]; then
    log "the real-node test cluster at $other is running: not a leftover, left alone"
  fi
}

real_host_begin() {
  mkdir -p "$DIR/host"
  real_remove_leftover
  if [[ -e "$REAL_LOCK" ]]; then
    local other
    other="$(cat "$REAL_LOCK" 2>/dev/null || true)"
    if [[ -n "$other" && -f "$other/$MARKER" ]]; then
      die "a real-node test cluster already runs at $other (one at a time: they share the bridge $REAL_BRIDGE and 198.18.0.0/16); stop it with: hack/cluster.sh down --dir $other"
    fi
    die "$REAL_LOCK names a real-node cluster at '${other:-?}' that no longer exists; remove the file if you are sure nothing of it is left ('hack/cluster.sh down --dir ${other:-DIR}' cleans up what it recorded)"
  fi
  ip link show "$REAL_BRIDGE" >/dev/null 2>&1 \
    && die "the network bridge $REAL_BRIDGE already exists but no real-node cluster claims it: remove it with 'ip link delete $REAL_BRIDGE' if it is a leftover"
  printf '%s\n' "$DIR" > "$REAL_LOCK"
  : > "$DIR/host/changes"
  real_record "lock $REAL_LOCK"
  # What existed before, so teardown removes only what the cluster added.
  ls -1 /var/run/netns 2>/dev/null | sort > "$DIR/host/netns-before" || true
  real_links | sort > "$DIR/host/links-before"
  # iptables-nft creates the nftables tables kube-proxy and kubelet write into; those that are new go at teardown.
  if command -v nft >/dev/null 2>&1; then
    nft list tables 2>/dev/null | sort > "$DIR/host/nft-tables-before" || true
  fi
  # The iptables chains and ip sets of the machine (another Kubernetes node's KUBE-* chains, say): teardown removes
  # only chains and sets that were not there, and rules of existing chains only when they jump to such a chain.
  local cmd
  for cmd in iptables ip6tables; do
    real_chains "$cmd" > "$DIR/host/chains-before-$cmd"
  done
  if command -v ipset >/dev/null 2>&1; then
    ipset list -n 2>/dev/null | sort > "$DIR/host/ipsets-before" || true
  fi
  [[ -d /var/run/netns ]] || real_record "dir /var/run/netns"
  [[ -d /var/log/containers ]] || real_record "dir /var/log/containers"
  [[ -d /var/log/pods ]] || real_record "dir /var/log/pods"
  [[ -d /run/containerd ]] || real_record "dir /run/containerd"
  # Fixed paths kubelet and the CNI library use whatever their configuration says: the device plugin socket, and
  # the cache of each pod's network setup (its entries stay when teardown kills pods without a CNI DEL).
  [[ -d /var/lib/kubelet ]] || real_record "dir /var/lib/kubelet"
  [[ -d /var/lib/cni ]] || real_record "dir /var/lib/cni"
  ls -1 /var/lib/cni/results 2>/dev/null | sort > "$DIR/host/cni-results-before" || true
  local s value
  for s in "${REAL_SYSCTLS[@]}"; do
    value="$(sysctl -n "$s" 2>/dev/null)" || continue
    real_record "sysctl $s $value"
  done
}

# ---------------------------------------------------------------------------------------------
# Network

real_network_up() {
  log "creating bridge $REAL_BRIDGE ($REAL_HOST_IP/16) for the nodes and their pods"
  real_record "bridge $REAL_BRIDGE"
  # A bridge whose address was never set takes the lowest address among its ports and changes it whenever the
  # port holding that address leaves, that is whenever such a pod ends. Every running pod then sends to a gateway
  # address nobody answers until its ARP entry expires (seconds to a minute): probes time out, connections to the
  # database hang, a run loses requests. A fixed, locally administered address never changes.
  ip link add "$REAL_BRIDGE" address "$REAL_BRIDGE_MAC" type bridge || die "cannot create the bridge $REAL_BRIDGE"
  ip addr add "$REAL_HOST_IP/16" dev "$REAL_BRIDGE"
  local line name pool index
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    ip addr add "$(real_node_ip "$index")/32" dev "$REAL_BRIDGE"
    # The gateway of the node's pod subnet. Set here rather than by the CNI bridge plugin, which refuses a bridge
    # that already has an address of another subnet.
    ip addr add "198.18.$index.1/24" dev "$REAL_BRIDGE"
  done
  ip link set "$REAL_BRIDGE" up
  # Service addresses stay on the bridge too: a packet to a ClusterIP that kube-proxy has not (yet) rewritten
  # would otherwise follow the default route off this machine.
  ip route add "$REAL_SERVICE_RANGE" dev "$REAL_BRIDGE"
  # Pods on different nodes reach each other and Services through this machine's routing; bridged traffic must
  # pass iptables so that a Service answer between two pods on one node is un-NATed.
  sysctl -qw net.ipv4.ip_forward=1
  sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
}

real_cni_config() {
  local name="$1" index="$2" node_dir
  node_dir="$(real_node_dir "$name")"
  mkdir -p "$node_dir/cni/conf" "$node_dir/cni/ipam"
  # No default route and no masquerading: a pod can reach 198.18.0.0/15 (pods, nodes, Services) and nothing else,
  # through its subnet's gateway on the bridge (real_network_up).
  cat > "$node_dir/cni/conf/10-stackbench.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "stackbench",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$REAL_BRIDGE",
      "isGateway": false,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$node_dir/cni/ipam",
        "ranges": [[{"subnet": "198.18.$index.0/24", "gateway": "198.18.$index.1"}]],
        "routes": [{"dst": "198.18.0.0/15"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF
}

# ---------------------------------------------------------------------------------------------
# cgroups: each node's pods live under /stackbench-NAME in every v1 hierarchy, confined to the node's CPUs.

real_cgroups_up() {
  local line name pool index cpus controller base level mems
  mems="$(cat /sys/fs/cgroup/cpuset/cpuset.mems)"
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    cpus="$(real_node_cpus "$pool")"
    for controller in "${REAL_CGROUP_CONTROLLERS[@]}"; do
      base="/sys/fs/cgroup/$controller"
      [[ -d "$base" ]] || continue
      real_record "cgroup $base/$name"
      for level in "$name" "$name/kubepods" "$name/kubepods/burstable" "$name/kubepods/besteffort"; do
        mkdir -p "$base/$level"
        if [[ "$controller" == cpuset ]]; then
          # A cpuset child is unusable until both are set; children made later (pods) copy their parent's.
          echo "$cpus" > "$base/$level/cpuset.cpus"
          echo "$mems" > "$base/$level/cpuset.mems"
          echo 1 > "$base/$level/cgroup.clone_children"
        fi
      done
    done
  done
}

# ---------------------------------------------------------------------------------------------
# Certificates and configuration

real_pki() {
  local line name pool index pids=() pid
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    # The Node authorizer confines each kubelet to its own node and pods.
    new_cert "kubelet-$name" "/O=system:nodes/CN=system:node:$name" "extendedKeyUsage=clientAuth" &
    pids+=($!)
    new_cert "kubelet-serving-$name" "/CN=$name" "extendedKeyUsage=serverAuth
subjectAltName=IP:$(real_node_ip "$index"),DNS:$name" &
    pids+=($!)
  done
  new_cert kube-proxy "/CN=system:kube-proxy" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  new_cert coredns "/CN=stackbench:coredns" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  new_cert kube-router "/CN=stackbench:kube-router" "extendedKeyUsage=clientAuth" &
  pids+=($!)
  for pid in "${pids[@]}"; do
    wait "$pid" || die "creating the nodes' certificates with openssl failed"
  done
  chmod 600 "$DIR/pki"/*.key
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    write_kubeconfig "$DIR/kubeconfigs/kubelet-$name.kubeconfig" "kubelet-$name"
  done
  write_kubeconfig "$DIR/kubeconfigs/kube-proxy.kubeconfig" kube-proxy
  write_kubeconfig "$DIR/kubeconfigs/coredns.kubeconfig" coredns
  write_kubeconfig "$DIR/kubeconfigs/kube-router.kubeconfig" kube-router
}

real_containerd_config() {
  local name="$1" node_dir
  node_dir="$(real_node_dir "$name")"
  mkdir -p "$node_dir/containerd"
  cat > "$node_dir/containerd/config.toml" <<EOF
version = 2
root = "$node_dir/containerd/root"
state = "$node_dir/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs", "io.containerd.tracing.processor.v1.otlp",
  "io.containerd.internal.v1.tracing"]

[grpc]
  address = "$node_dir/containerd/containerd.sock"

[plugins."io.containerd.internal.v1.opt"]
  path = "$node_dir/containerd/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$REAL_PAUSE_IMAGE"
  # Without CAP_SYS_RESOURCE (as here) runc cannot lower a process's OOM score below containerd's own.
  restrict_oom_score_adj = true
  disable_apparmor = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$STACKBENCH_CONTAINERD_BIN/runc"
        Root = "$node_dir/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "$STACKBENCH_CNI_BIN"
    conf_dir = "$node_dir/cni/conf"
EOF
}

real_kubelet_config() {
  local name="$1" pool="$2" index="$3" node_dir ip reserved taints=""
  node_dir="$(real_node_dir "$name")"
  ip="$(real_node_ip "$index")"
  # The target node advertises the one CPU its pods have to themselves, so a target that asks for more is refused
  # with the scheduler's reason. The other nodes share CPU 0 and, like kind's nodes, advertise the machine's CPUs.
  reserved=0
  [[ "$pool" == target ]] && reserved=$(( $(nproc) - 1 ))
  if [[ "$pool" != system ]]; then
    taints="registerWithTaints:
- key: stackbench.dev/pool
  value: $pool
  effect: NoSchedule"
  fi
  mkdir -p "$node_dir/kubelet" "$node_dir/pod-logs"
  cat > "$node_dir/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $ip
port: 10250
readOnlyPort: 0
healthzBindAddress: $ip
healthzPort: 10248
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $DIR/pki/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $DIR/pki/kubelet-serving-$name.crt
tlsPrivateKeyFile: $DIR/pki/kubelet-serving-$name.key
containerRuntimeEndpoint: unix://$node_dir/containerd/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /$name
failCgroupV1: false
failSwapOn: false
# Pods resolve names through the cluster DNS only; this machine's resolv.conf is not theirs.
resolvConf: ""
clusterDNS: [$REAL_DNS_IP]
clusterDomain: $REAL_CLUSTER_DOMAIN
podLogsDir: $node_dir/pod-logs
systemReserved: {cpu: "$reserved"}
# The images are imported, never pulled: image garbage collection would delete them for good.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
maxPods: 40
$taints
EOF
}

real_kube_proxy_config() {
  cat > "$DIR/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $DIR/kubeconfigs/kube-proxy.kubeconfig}
hostnameOverride: ${REAL_NODES[0]%% *}
mode: iptables
clusterCIDR: $REAL_POD_RANGE
bindAddress: $REAL_HOST_IP
healthzBindAddress: 127.0.0.1:$KUBE_PROXY_HEALTH_PORT
metricsBindAddress: 127.0.0.1:$KUBE_PROXY_METRICS_PORT
nodePortAddresses: ["$REAL_POD_RANGE"]
# Leave the machine's conntrack limits, timeouts and localhost routing alone (0: keep the kernel's value).
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
iptables: {localhostNodePorts: false}
EOF
}

real_coredns_config() {
  mkdir -p "$DIR/coredns"
  # Cluster names only, no upstream: a query for any other name gets no answer from outside this machine.
  cat > "$DIR/coredns/Corefile" <<EOF
$REAL_CLUSTER_DOMAIN:53 in-addr.arpa:53 {
    bind $REAL_HOST_IP
    errors
    kubernetes $REAL_CLUSTER_DOMAIN in-addr.arpa {
        kubeconfig $DIR/kubeconfigs/coredns.kubeconfig stackbench
    }
    cache 10
}
.:53 {
    bind $REAL_HOST_IP
    errors
}
EOF
}

# Objects the real nodes need in the API: RBAC for the DNS server and the NetworkPolicy enforcer, and the kube-dns
# Service, whose one endpoint is the DNS server on the bridge.
real_api_objects() {
  cat <<EOF
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: stackbench:coredns
rules:
- apiGroups: [""]
  resources: [endpoints, services, pods, namespaces]
  verbs: [list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: stackbench:coredns
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "stackbench:coredns"}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: "stackbench:coredns"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: stackbench:kube-router
rules:
- apiGroups: [""]
  resources: [pods, namespaces]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [nodes]
  verbs: [get]
- apiGroups: [networking.k8s.io]
  resources: [networkpolicies]
  verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: stackbench:kube-router
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "stackbench:kube-router"}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: "stackbench:kube-router"}
---
apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
  labels: {k8s-app: kube-dns}
spec:
  clusterIP: $REAL_DNS_IP
  ports:
  - {name: dns, port: 53, protocol: UDP, targetPort: 53}
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 53}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kube-dns-bridge
  namespace: kube-system
  labels:
    kubernetes.io/service-name: kube-dns
    endpointslice.kubernetes.io/managed-by: stackbench-test-cluster
addressType: IPv4
endpoints:
- addresses: ["$REAL_HOST_IP"]
  conditions: {ready: true}
ports:
- {name: dns, port: 53, protocol: UDP}
- {name: dns-tcp, port: 53, protocol: TCP}
EOF
}

# ---------------------------------------------------------------------------------------------
# Processes

real_nodes_start() {
  local line name pool index node_dir cpus
  # Container registries are never contacted: every image is imported. A pull that containerd attempts anyway
  # goes to a proxy address where nothing listens and fails at once.
  local no_pull=(env HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 "NO_PROXY=127.0.0.1,$REAL_POD_RANGE"
    "PATH=$STACKBENCH_CONTAINERD_BIN:$STACKBENCH_CNI_BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    node_dir="$(real_node_dir "$name")"
    real_cni_config "$name" "$index"
    real_containerd_config "$name"
    real_kubelet_config "$name" "$pool" "$index"
    start "containerd-$name" "${no_pull[@]}" "$STACKBENCH_CONTAINERD_BIN/containerd" \
      --config "$node_dir/containerd/config.toml"
  done
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    node_dir="$(real_node_dir "$name")"
    wait_until "containerd-$name" 60 "containerd of $name" \
      "$STACKBENCH_CONTAINERD_BIN/ctr" --address "$node_dir/containerd/containerd.sock" version
  done
  # The node images: the pod sandbox, PostgreSQL (each run's own database, and hack/cluster/postgresql.yaml) and busybox
  # and the chart's `helm test` pod.
  real_import_images "$REAL_PAUSE_TAR" "$DIR/images/postgres.tar" "$DIR/images/busybox.tar"
  real_tag_major "$DIR/images/postgres.tar"
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    real_kubelet_start "$name" "$pool" "$index"
  done
  real_kube_proxy_config
  start kube-proxy "$STACKBENCH_KUBE_BIN/kube-proxy" --config "$DIR/kube-proxy.yaml"
  real_coredns_config
  start coredns "$STACKBENCH_COREDNS" -conf "$DIR/coredns/Corefile"
}

# real_kubelet_start NAME POOL INDEX: the node's kubelet, on the configuration real_kubelet_config wrote.
real_kubelet_start() {
  local name="$1" pool="$2" index="$3" node_dir
  node_dir="$(real_node_dir "$name")"
  # --housekeeping-interval: the pods' CPU counters refreshed every 2-4 s, not 10-20 s, so that a k6 runner, which
  # lives only as long as its load, has several readings inside even a short measured window.
  start "kubelet-$name" "$STACKBENCH_KUBE_BIN/kubelet" \
    --config "$node_dir/kubelet.yaml" \
    --housekeeping-interval 2s \
    --kubeconfig "$DIR/kubeconfigs/kubelet-$name.kubeconfig" \
    --root-dir "$node_dir/kubelet" \
    --cert-dir "$node_dir/kubelet/pki" \
    --hostname-override "$name" \
    --node-ip "$(real_node_ip "$index")" \
    --node-labels "stackbench.dev/pool=$pool,stackbench.dev/real-node=true"
}

# real_node_line NAME: the node's "name pool index" line of REAL_NODES, or a failure naming the nodes there are.
real_node_line() {
  local line name
  for line in "${REAL_NODES[@]}"; do
    read -r name _ <<< "$line"
    [[ "$name" == "$1" ]] && { printf '%s' "$line"; return 0; }
  done
  die "no real node named '$1': the nodes are $(printf '%s ' "${REAL_NODES[@]}" | awk '{ for (i = 1; i <= NF; i += 3) printf "%s ", $i }')"
}

# real_kubelet_stop NAME: stops the node's kubelet only, as a node whose kubelet died: its containerd and the pods'
# containers go on running, the node stops renewing its Lease and reporting status, its logs and stats go dark.
real_kubelet_stop() {
  local name="$1" pid deadline
  real_node_line "$name" > /dev/null
  pid="$(pid_of "kubelet-$name")"
  is_ours "$pid" || die "the kubelet of $name is not running (see hack/cluster.sh status --dir $DIR)"
  kill -TERM "$pid"
  deadline=$(( SECONDS + 15 ))
  while is_ours "$pid" && (( SECONDS < deadline )); do sleep 0.1; done
  is_ours "$pid" && kill -KILL "$pid" 2>/dev/null
  log "stopped the kubelet of $name (pid $pid); start it again with hack/cluster.sh start-kubelet --dir $DIR $name"
}

# real_kubelet_restart NAME: starts a stopped kubelet of the node again and waits until the node is Ready.
real_kubelet_restart() {
  local name pool index
  read -r name pool index <<< "$(real_node_line "$1")"
  ! is_ours "$(pid_of "kubelet-$name")" || die "the kubelet of $name is running already; stop it first with hack/cluster.sh stop-kubelet --dir $DIR $name"
  real_kubelet_start "$name" "$pool" "$index"
  wait_until "kubelet-$name" 120 "node $name to be Ready" \
    kubectl_admin wait --for condition=Ready --timeout 1s "node/$name"
  log "started the kubelet of $name again"
}

# real_import_images [POOL[,POOL...]=]TAR...: imports image tarballs into the nodes' containerd, nodes in parallel.
# A tarball with pools before "=" goes only into the nodes of those pools, one without into every node.
real_import_images() {
  local line name pool index node_dir pids=() pid spec tar pools known
  known=" $(for line in "${REAL_NODES[@]}"; do read -r name pool index <<< "$line"; printf '%s ' "$pool"; done)"
  for spec in "$@"; do
    real_image_spec "$spec"
    [[ -f "$tar" ]] || die "no image tarball at $tar"
    for pool in ${pools//,/ }; do
      [[ "$known" == *" $pool "* ]] || die "no node pool '$pool' for $tar; the pools are:$known"
    done
  done
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    node_dir="$(real_node_dir "$name")"
    (
      for spec in "$@"; do
        real_image_spec "$spec"
        [[ -z "$pools" || ",$pools," == *",$pool,"* ]] || continue
        "$STACKBENCH_CONTAINERD_BIN/ctr" --address "$node_dir/containerd/containerd.sock" -n k8s.io \
          images import --no-unpack=false "$tar" >> "$DIR/logs/images-$name.log" 2>&1 \
          || { log "importing $tar into $name failed; see $DIR/logs/images-$name.log"; exit 1; }
      done
    ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || die "importing images into the nodes failed"
  done
}

# real_image_spec [POOL[,POOL...]=]TAR: sets pools (empty for every node) and tar.
real_image_spec() {
  if [[ "$1" =~ ^([a-z0-9-]+(,[a-z0-9-]+)*)=(.+)$ ]]; then
    pools="${BASH_REMATCH[1]}"
    tar="${BASH_REMATCH[3]}"
  else
    pools=""
    tar="$1"
  fi
}

# real_tag_major TAR: also names the image by its major version (stackbench/postgres:15.20 as
# stackbench/postgres:15), the tag manifests use so that they survive a Debian point release.
real_tag_major() {
  local reference major line name pool index
  reference="$(image_reference "$1")"
  major="${reference%:*}:$(cut -d. -f1 <<< "${reference##*:}")"
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    "$STACKBENCH_CONTAINERD_BIN/ctr" --address "$(real_node_dir "$name")/containerd/containerd.sock" -n k8s.io \
      images tag --force "$reference" "$major" >> "$DIR/logs/images-$name.log" 2>&1 \
      || die "tagging $reference as $major on $name failed; see $DIR/logs/images-$name.log"
  done
}

# real_kubelet_ready NAME POOL INDEX: waits up to 120 s for the node to be Ready. The kubelets of this machine share
# one fixed device-plugin socket path whatever --root-dir says (each removes what is in /var/lib/kubelet/device-plugins
# and binds its socket there as it starts), so two starting at the same instant can find it bound and exit; such a
# kubelet is started once more, alone, its first log kept beside the new one.
real_kubelet_ready() {
  local name="$1" pool="$2" index="$3" restarted=false pid deadline=$(( SECONDS + 120 ))
  until kubectl_admin wait --for condition=Ready --timeout 1s "node/$name" >/dev/null 2>&1; do
    pid="$(pid_of "kubelet-$name")"
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      if ! $restarted && grep -q "while starting device plugin registry" "$DIR/logs/kubelet-$name.log" 2>/dev/null; then
        log "the kubelet of $name found the shared device-plugin socket taken by another starting kubelet; starting it again"
        mv "$DIR/logs/kubelet-$name.log" "$DIR/logs/kubelet-$name.first-start.log"
        restarted=true
        real_kubelet_start "$name" "$pool" "$index"
        continue
      fi
      fail_with_log "kubelet-$name" "kubelet-$name exited while waiting for node $name to be Ready; see $DIR/logs/kubelet-$name.log"
    fi
    (( SECONDS < deadline )) \
      || fail_with_log "kubelet-$name" "timed out after 120s waiting for node $name to be Ready; see $DIR/logs/kubelet-$name.log"
    sleep 0.2
  done
}

real_nodes_wait() {
  local line name pool index
  for line in "${REAL_NODES[@]}"; do
    read -r name pool index <<< "$line"
    real_kubelet_ready "$name" "$pool" "$index"
  done
  wait_until coredns 30 "the cluster DNS on $REAL_HOST_IP:53" \
    bash -c "exec 3<>/dev/tcp/$REAL_HOST_IP/53"
  real_network_policy_start
}

# The NetworkPolicy enforcer (kube-router's network policy controller), once the node it runs as exists. Its chains
# (KUBE-ROUTER-*, KUBE-POD-FW-*, KUBE-NWPLCY-*...) and ip sets are removed at teardown with the cluster's others.
# Its metrics and health servers are off: they would listen on every address of this machine.
real_network_policy_start() {
  local system="${REAL_NODES[0]%% *}"
  start kube-router "$STACKBENCH_KUBE_ROUTER" \
    --kubeconfig "$DIR/kubeconfigs/kube-router.kubeconfig" \
    --hostname-override "$system" \
    --service-cluster-ip-range "$REAL_SERVICE_RANGE" \
    --metrics-port 0 \
    --health-port 0 \
    --iptables-sync-period 1m
  wait_until kube-router 60 "the NetworkPolicy enforcer (kube-router) to program its chains" \
    bash -c "iptables -t filter -S FORWARD 2>/dev/null | grep -q -- '-j KUBE-ROUTER-FORWARD'"
}

# ---------------------------------------------------------------------------------------------
# Teardown: after the processes listed in DIR/pids are stopped. Safe to run twice and after a partial start.

real_nodes_teardown() {
  [[ -f "$DIR/host/changes" ]] || return 0
  local kind a b pid mount netns
  if [[ -z "${STACKBENCH_KUBE_BIN:-}" && -f "$STACKBENCH_TOOLS/env.sh" ]]; then
    # shellcheck source=/dev/null
    source "$STACKBENCH_TOOLS/env.sh"
  fi
  # 1. Whatever still runs in the nodes' cgroups (containers, their shims' children) is killed.
  while read -r kind a b; do
    [[ "$kind" == cgroup && "$a" == /sys/fs/cgroup/pids/* ]] || continue
    [[ -d "$a" ]] || continue
    while read -r pid; do
      [[ -n "$pid" ]] && kill -KILL "$pid" 2>/dev/null || true
    done < <(find "$a" -name cgroup.procs -exec cat {} + 2>/dev/null)
  done < "$DIR/host/changes"
  # 2. containerd's shims (their command lines name the node's containerd socket under DIR).
  for pid in $(pgrep -f "containerd-shim-runc-v2 .*-address $DIR/" 2>/dev/null); do
    kill -KILL "$pid" 2>/dev/null || true
  done
  sleep 0.5
  # 3. Mounts under DIR (container root filesystems, pod volumes), deepest first.
  while read -r mount; do
    umount -l "$mount" 2>/dev/null || true
  done < <(awk -v d="$DIR/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r)
  # 4. Network namespaces the pods had (containerd names them cni-...), with their veth pairs.
  if [[ -d /var/run/netns ]]; then
    for netns in $(ls -1 /var/run/netns 2>/dev/null | sort | comm -13 "$DIR/host/netns-before" - 2>/dev/null); do
      umount -l "/var/run/netns/$netns" 2>/dev/null || true
      rm -f "/var/run/netns/$netns"
    done
  fi
  # The pods' veth pairs go with their namespaces once the kernel lets go of them; one still there is removed.
  local deadline=$(( SECONDS + 10 )) link
  while [[ -n "$(real_new_links)" ]] && (( SECONDS < deadline )); do sleep 0.2; done
  for link in $(real_new_links); do
    ip link delete "$link" 2>/dev/null || true
  done
  # 5. iptables chains of kube-proxy, kubelet, the CNI plugins and the NetworkPolicy enforcer, then its ip sets.
  # Not `kube-proxy --cleanup`: it removes its chains by name, those of another kube-proxy on this machine too.
  real_remove_chains iptables
  real_remove_chains ip6tables
  if command -v ipset >/dev/null 2>&1 && [[ -f "$DIR/host/ipsets-before" ]]; then
    local set
    for set in $(ipset list -n 2>/dev/null | sort | comm -13 "$DIR/host/ipsets-before" -); do
      ipset destroy "$set" 2>/dev/null || log "could not remove ip set $set (still referenced by a rule?)"
    done
  fi
  if command -v nft >/dev/null 2>&1 && [[ -f "$DIR/host/nft-tables-before" ]]; then
    local table
    while read -r table; do
      [[ -n "$table" ]] && nft delete "$table" 2>/dev/null || true
    done < <(nft list tables 2>/dev/null | sort | comm -13 "$DIR/host/nft-tables-before" - | sed 's/^table //; s/^/table /')
  fi
  # 6. kubelet's links to the containers' logs, and the CNI library's cache entries of the pods.
  find /var/log/containers /var/log/pods -maxdepth 1 -lname "$DIR/*" -delete 2>/dev/null || true
  if [[ -d /var/lib/cni/results && -f "$DIR/host/cni-results-before" ]]; then
    local entry
    for entry in $(ls -1 /var/lib/cni/results | sort | comm -13 "$DIR/host/cni-results-before" -); do
      rm -f "/var/lib/cni/results/$entry"
    done
  fi
  # 7. The recorded changes, newest first.
  local changes
  mapfile -t changes < "$DIR/host/changes"
  local i
  for (( i = ${#changes[@]} - 1; i >= 0; i-- )); do
    read -r kind a b <<< "${changes[$i]}"
    case "$kind" in
      sysctl) sysctl -qw "$a=$b" 2>/dev/null || log "could not restore sysctl $a to $b" ;;
      bridge) ip link delete "$a" 2>/dev/null || true ;;
      cgroup)
        # Depth first: a cgroup directory can only go once its children are gone.
        if [[ -d "$a" ]]; then
          find "$a" -depth -type d -exec rmdir {} \; 2>/dev/null || log "could not remove cgroup $a (processes left in it?)"
        fi ;;
      dir) rm -rf "$a" ;;
      lock) rm -f "$a" ;;
    esac
  done
  rm -f "$DIR/host/changes"
}

# The machine's network links by name (a veth's peer suffix dropped).
real_links() { ip -o link show 2>/dev/null | awk '{ sub(/@.*/, "", $2); sub(/:$/, "", $2); print $2 }'; }

# veth links that were not there before the cluster started.
real_new_links() {
  [[ -f "$DIR/host/links-before" ]] || return 0
  real_links | sort | comm -13 "$DIR/host/links-before" - | grep '^veth' || true
}

# real_chains iptables|ip6tables: the chains of every table, one "TABLE CHAIN" a line, sorted.
real_chains() {
  local cmd="$1" table
  command -v "$cmd" >/dev/null 2>&1 || return 0
  for table in filter nat mangle raw; do
    # (2>/dev/null: iptables-nft warns on every call once any legacy table exists.)
    "$cmd" -t "$table" -S 2>/dev/null | awk -v t="$table" '$1 == "-N" { print t, $2 }'
  done | sort
}

# real_remove_chains iptables|ip6tables: removes the chains that were not there before the cluster started
# (DIR/host/chains-before-CMD) with every rule that jumps to one of them. Chains that were there, and their rules
# that jump elsewhere, stay; without the list of chains from before, nothing is removed.
real_remove_chains() {
  local cmd="$1" table rule chain ours
  command -v "$cmd" >/dev/null 2>&1 || return 0
  [[ -f "$DIR/host/chains-before-$cmd" ]] || { log "no record of the $cmd chains from before the cluster: left alone"; return 0; }
  for table in filter nat mangle raw; do
    "$cmd" -t "$table" -S >/dev/null 2>&1 || continue
    mapfile -t ours < <(real_chains "$cmd" | comm -13 "$DIR/host/chains-before-$cmd" - | awk -v t="$table" '$1 == t { print $2 }')
    (( ${#ours[@]} > 0 )) || continue
    local jump_to_ours
    jump_to_ours="-j ($(IFS='|'; printf '%s' "${ours[*]}"))( |$)"
    # Rules of chains that stay and jump to ours: "-A CHAIN ... -j OURS" becomes "-D CHAIN ... -j OURS".
    while read -r rule; do
      chain="$(awk '{ print $2 }' <<< "$rule")"
      [[ " ${ours[*]} " == *" $chain "* ]] && continue
      eval "$cmd -t $table -D ${rule#-A }" 2>/dev/null || true
    done < <("$cmd" -t "$table" -S 2>/dev/null | grep -E '^-A ' | grep -E -- "$jump_to_ours")
    for chain in "${ours[@]}"; do
      "$cmd" -t "$table" -F "$chain" 2>/dev/null || true
    done
    for chain in "${ours[@]}"; do
      "$cmd" -t "$table" -X "$chain" 2>/dev/null || log "could not remove the $cmd chain $chain of table $table"
    done
  done
}
