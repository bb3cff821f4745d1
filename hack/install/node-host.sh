# Host programs the real worker nodes of the test cluster (hack/cluster.sh) execute from the system:
# kube-proxy runs iptables, iptables-save, iptables-restore and conntrack to program Services, and
# the CNI bridge and portmap plugins run iptables for masquerading and host ports. They must match
# the host's kernel and netfilter setup, so they come from the host's packages, not the tools
# directory.
#
# Unlike the other install scripts this one changes the host (apt-get install), so it only does so
# as root, which real nodes need anyway. Without root it never fails setup: the kwok-only cluster
# needs none of this, and a note says what real nodes would need.
NODE_HOST_COMMANDS=(iptables iptables-save iptables-restore conntrack)

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
    log "note: real worker nodes need root and the host packages iptables and conntrack (missing here: $missing); the kwok cluster does not"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 \
    || die "real worker nodes need $missing on the host; install your distribution's iptables and conntrack packages and re-run hack/setup.sh"
  log "installing iptables and conntrack on the host (missing: $missing)..."
  # An empty package index (fresh container) knows no packages; refresh it only then.
  if ! apt-cache show iptables conntrack >/dev/null 2>&1; then
    apt-get update -qq || die "apt-get update failed; iptables and conntrack come from the Debian package registry, which must be reachable"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iptables conntrack >/dev/null \
    || die "apt-get install iptables conntrack failed; see the apt output above"
  missing="$(node_host_missing)"
  [[ -z "$missing" ]] || die "iptables and conntrack are installed but $missing still cannot be found on PATH or in /usr/sbin, /sbin"
}
