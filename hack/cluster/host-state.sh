#!/usr/bin/env bash
# Prints, in a stable order, everything on this machine that a test cluster with real nodes changes while it runs
# (hack/cluster/real-nodes.sh): network links and addresses, routes, network namespaces, mounts, iptables and
# nftables rules, ip sets, the node cgroups, the kernel settings kubelet and kube-proxy touch, the directories containerd
# and kubelet use outside the cluster's own directory, and node processes. Run it before `up` and after `down`:
# the two outputs must be equal. Counters and other figures that change on their own are left out.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/real-nodes.sh"

section() { printf '== %s\n' "$1"; }

section links
ip -o link show 2>/dev/null | awk '{ sub(/@.*/, "", $2); print $2 }' | sort
section addresses
ip -o addr show 2>/dev/null | awk '{ print $2, $3, $4 }' | sort
section routes
ip route show table all 2>/dev/null | sort
section "network namespaces"
ls -1 /var/run/netns 2>/dev/null | sort
section mounts
awk '{ print $5, $9 }' /proc/self/mountinfo | sort
for cmd in iptables-save ip6tables-save; do
  section "$cmd"
  command -v "$cmd" >/dev/null 2>&1 && "$cmd" 2>/dev/null | grep -v '^#' | sed -E 's/\[[0-9]+:[0-9]+\]//'
done
section nftables
command -v nft >/dev/null 2>&1 && nft list tables 2>/dev/null | sort
section "ip sets"
command -v ipset >/dev/null 2>&1 && ipset list -n 2>/dev/null | sort
section cgroups
for controller in "${REAL_CGROUP_CONTROLLERS[@]}"; do
  [[ -d "/sys/fs/cgroup/$controller" ]] && find "/sys/fs/cgroup/$controller" -maxdepth 1 -type d -name 'stackbench-*'
done | sort
section sysctls
for s in "${REAL_SYSCTLS[@]}"; do
  printf '%s=%s\n' "$s" "$(sysctl -n "$s" 2>/dev/null || echo '?')"
done
# kube-proxy grows the conntrack hash table with nf_conntrack_max (a module parameter, not a sysctl).
printf 'nf_conntrack hashsize=%s\n' "$(cat /sys/module/nf_conntrack/parameters/hashsize 2>/dev/null || echo '?')"
section directories
for d in /var/run/netns /var/log/containers /var/log/pods /run/containerd /var/lib/cni /etc/cni /var/lib/kubelet "$REAL_LOCK"; do
  [[ -e "$d" ]] && printf '%s %s\n' "$d" "$(find "$d" 2>/dev/null | wc -l)"
done
section processes
ps -eo comm= 2>/dev/null | grep -xE 'kubelet|kube-proxy|containerd|containerd-shim|containerd-shim-runc-v2|coredns|runc|catatonit' | sort | uniq -c
exit 0
