# Host programs the real worker nodes of the test cluster (hack/cluster.sh) execute from the system:
# kube-proxy runs iptables, iptables-save, iptables-restore and conntrack to program Services, and
# the CNI bridge and portmap plugins run iptables for masquerading and host ports. They must match
# the host's kernel and netfilter setup, so they come from the host's packages, not the tools
# directory. nft (nftables) lets teardown remove the nftables tables iptables-nft created, and shows them in the
# host-state check (hack/cluster/host-state.sh). kube-router's network policy controller keeps the pods a
# NetworkPolicy selects in ip sets (ipset).
#
# Unlike the other install scripts this one changes the host (apt-get install), so it only does so
# as root, which real nodes need anyway. Without root it never fails setup: the kwok-only cluster
# needs none of this, and a note says what real nodes would need.
NODE_HOST_COMMANDS=(iptables iptables-save iptables-restore conntrack nft ipset)
NODE_HOST_PACKAGES=(iptables conntrack nftables ipset)

# Prints the commands from NODE_HOST_COMMANDS that are not installed. A non-root PATH often lacks the
# sbin directories where Debian puts them, and kube-proxy (root) will find them there.
node_host_missing() {
  local cmd missing=()
  for cmd in "${NODE_HOST_COMMANDS[@]}"; do
    PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin" command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
  done
  printf '%s' "${missing[*]}"
}

install_node_host() {
  local missing
  missing="$(node_host_missing)"
  [[ -z "$missing" ]] && return 0
  if [[ "$(id -u)" != 0 ]]; then
    log "note: real worker nodes need root and the host packages ${NODE_HOST_PACKAGES[*]} (missing here: $missing); the kwok cluster does not"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 \
    || die "real worker nodes need $missing on the host; install your distribution's ${NODE_HOST_PACKAGES[*]} packages and re-run hack/setup.sh"
  log "installing ${NODE_HOST_PACKAGES[*]} on the host (missing: $missing)..."
  # An empty package index (fresh container) knows no packages; refresh it only then.
  if ! apt-cache show "${NODE_HOST_PACKAGES[@]}" >/dev/null 2>&1; then
    apt-get update -qq || die "apt-get update failed; ${NODE_HOST_PACKAGES[*]} come from the Debian package registry, which must be reachable"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${NODE_HOST_PACKAGES[@]}" >/dev/null \
    || die "apt-get install ${NODE_HOST_PACKAGES[*]} failed; see the apt output above"
  missing="$(node_host_missing)"
  [[ -z "$missing" ]] || die "${NODE_HOST_PACKAGES[*]} are installed but $missing still cannot be found on PATH or in /usr/sbin, /sbin"
}
