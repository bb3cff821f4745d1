#!/usr/bin/env bash
# Builds the images a real-node test cluster (kubelet + containerd, no registry) runs besides stackbench's
# own, offline, the same way as the base image (Debian packages unpacked into a root filesystem, written by
# write_image.py as `docker save` tarballs):
#
#   pause.tar     stackbench/pause:catatonit-<version>  the pod sandbox (containerd's sandbox_image): catatonit
#                                                       in pause mode, static, nothing else; user 65535
#   postgres.tar  stackbench/postgres:<version>         PostgreSQL 15 server and psql/pg_isready, entrypoint
#                                                       postgres-entrypoint.sh (POSTGRES_USER, _PASSWORD, _DB);
#                                                       user 65532; stopped with SIGINT (fast shutdown: a deleted
#                                                       pod's server ends its clients' sessions instead of waiting
#                                                       for them to disconnect, as the upstream image does)
#   busybox.tar   stackbench/busybox:<version>          static busybox with its applet links, for the chart's
#                                                       `helm test` pod (wget); user 65532
#
#   hack/image-base/node-images.sh OUTPUT_DIR
#
# Versions are Debian's (catatonit, postgresql-15, busybox-static) without the Debian revision, which is kept
# in a label. The tars are cached under $STACKBENCH_TOOLS/node-images/<key>/, the key covering these scripts
# and the versions of every package that goes in, and copied into OUTPUT_DIR.
# Needs: dpkg-deb, apt-get (Debian/Ubuntu package lists), python3; an x86-64 Linux build machine (the busybox
# binary is run once to list its applets).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE="$STACKBENCH_ROOT/hack/image-base"
source "$HERE/debian.sh"

out="${1:?usage: hack/image-base/node-images.sh OUTPUT_DIR}"
require_image_tools

IMAGE_USER="65532:65532"
# The upstream Kubernetes pause image runs as 65535; the sandbox only sleeps and reaps.
PAUSE_USER="65535:65535"
PATH_ENV="PATH=/usr/local/bin:/usr/bin:/bin"
PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_LIB="/usr/lib/postgresql/$PG_MAJOR/lib"
# The PostgreSQL programs the image keeps: the server, initdb, pg_ctl and two clients for checks.
PG_PROGRAMS=(postgres postmaster initdb pg_ctl psql pg_isready)
# As in the other images: os-release, services, protocols, without their dependencies.
BASE_PACKAGES=(base-files netbase)
# Direct dependencies of postgresql-15 and postgresql-client-15 left out: Debian's Perl cluster wrappers
# (pg_ctlcluster, pg_wrapper), the locales (C.UTF-8 comes from libc-bin below), debconf, a snake-oil TLS
# certificate, sensible-utils, and LLVM, which only JIT compilation loads (the JIT provider is removed too,
# and the entrypoint sets jit = off).
POSTGRES_LEFT_OUT='postgresql-common|postgresql-client-common|postgresql-client-[0-9]+|locales|locales-all|ssl-cert|debconf|sensible-utils|libllvm[0-9]+'
# What debian_closure reaches through debconf-2.0 (tzdata's and libpam0g's maintainer scripts): an alternative
# debconf implementation and its libraries, which nothing in the image runs.
DEBCONF_ALTERNATIVE='cdebconf|libdebian-installer4|libnewt0\.52|libslang2|libtextwrap1'

# Debian's package index must be present for the versions below; refresh it only when it is missing.
if ! apt-cache show "postgresql-$PG_MAJOR" >/dev/null 2>&1; then
  if [[ "$(id -u)" == 0 ]]; then
    apt-get update -qq || die "apt-get update failed; the images need Debian's package registry"
  else
    die "the apt package lists are empty; run 'sudo apt-get update' once, then re-run hack/images.sh"
  fi
fi

# direct_depends PACKAGE...: their Depends and Pre-Depends (both sides of an alternative), one a line.
direct_depends() {
  apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances "$@" \
    | sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \([^< ][^ ]*\)$/\2/p' | sort -u
}
PAUSE_PACKAGES=(catatonit)
BUSYBOX_PACKAGES=("${BASE_PACKAGES[@]}" busybox-static)
mapfile -t postgres_libraries < <(direct_depends "postgresql-$PG_MAJOR" "postgresql-client-$PG_MAJOR" \
  | grep -vxE "$POSTGRES_LEFT_OUT")
(( ${#postgres_libraries[@]} > 0 )) || die "apt-cache depends postgresql-$PG_MAJOR listed no dependencies"
POSTGRES_PACKAGES=("${BASE_PACKAGES[@]}" "postgresql-$PG_MAJOR" "postgresql-client-$PG_MAJOR")
mapfile -t -O "${#POSTGRES_PACKAGES[@]}" POSTGRES_PACKAGES < <(debian_closure dash "${postgres_libraries[@]}" \
  | grep -vxE "$DEBCONF_ALTERNATIVE")
# Only the C.UTF-8 locale and `locale` are taken from it: initdb runs `locale -a` to list the system's
# collations.
LOCALE_PACKAGE=libc-bin

# The versions apt would download now: a Debian (security) update of any package makes a new key.
candidates="$(apt-cache policy "${PAUSE_PACKAGES[@]}" "${BUSYBOX_PACKAGES[@]}" "${POSTGRES_PACKAGES[@]}" \
  "$LOCALE_PACKAGE" | grep -E '^[^ ]|Candidate:')"
if grep -q 'Candidate: (none)' <<< "$candidates"; then
  die "no Debian package to download for: $(grep -B1 'Candidate: (none)' <<< "$candidates" | grep -v Candidate \
    | tr -d ':' | paste -sd' ')"
fi
key="$(cat "$HERE/node-images.sh" "$HERE/debian.sh" "$HERE/write_image.py" "$HERE/postgres-entrypoint.sh" \
  "$HERE/busybox-wget.sh" <(printf '%s' "$candidates") | sha256sum | cut -c1-16)"
cache="$STACKBENCH_TOOLS/node-images/$key"
if [[ ! -f "$cache/busybox.tar" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work" "$cache.partial"' EXIT
  rm -rf "$cache.partial"
  mkdir -p "$cache.partial"

  # upstream_version PACKAGE: its version in DEBIAN_VERSIONS without epoch and Debian revision (1:1.35.0-4 -> 1.35.0).
  upstream_version() {
    local version
    version="$(debian_version "$1")"
    version="${version#*:}"
    printf '%s' "${version%-*}"
  }
  # debian_version PACKAGE: its full version in DEBIAN_VERSIONS (set by unpack_debian_packages).
  debian_version() {
    local entry
    for entry in $DEBIAN_VERSIONS; do
      if [[ "${entry%%=*}" == "$1" ]]; then printf '%s' "${entry#*=}"; return 0; fi
    done
    die "package $1 was not unpacked (unpacked: $DEBIAN_VERSIONS)"
  }
  # write TAR NAME USER WORKDIR DESCRIPTION [write_image.py options...]
  write() {
    local tar="$1" name="$2" user="$3" workdir="$4" description="$5"; shift 5
    python3 "$HERE/write_image.py" "$work/$tar/rootfs" "$cache.partial/$tar.tar" "$name" \
      --user "$user" --workdir "$workdir" \
      --label "org.opencontainers.image.description=$description" \
      --label "dev.stackbench.debian.packages=$DEBIAN_VERSIONS" \
      --created-by "hack/image-base/node-images.sh (Debian packages: $tar)" "$@" \
      || die "writing the $name image tar failed"
    log "$(printf '%-40s %s' "$name" "$(du -h "$cache.partial/$tar.tar" | cut -f1)")"
  }

  # pause: catatonit is statically linked (its package has no dependencies), so the image is that one file and
  # its licence. -P: no child program; it sleeps, reaps whatever is re-parented to it, and exits on SIGINT or
  # SIGTERM.
  rootfs="$work/pause/rootfs"
  unpack_debian_packages "$rootfs" "$work/pause" "${PAUSE_PACKAGES[@]}"
  rm -rf "$rootfs/usr/libexec"
  [[ -x "$rootfs/usr/bin/catatonit" ]] || die "the catatonit package has no /usr/bin/catatonit"
  catatonit_version="$(upstream_version catatonit)"
  write pause "stackbench/pause:catatonit-$catatonit_version" "$PAUSE_USER" / \
    "pod sandbox: catatonit $catatonit_version in pause mode; Debian $(debian_version catatonit)" \
    --env "PATH=/usr/bin:/bin" --entrypoint /usr/bin/catatonit --entrypoint=-P

  # busybox: the static binary, one symbolic link per applet where busybox installs it, and the wget wrapper.
  # No entrypoint, as in the upstream busybox image: a pod's command (or args) names the applet to run.
  rootfs="$work/busybox/rootfs"
  unpack_debian_packages "$rootfs" "$work/busybox" "${BUSYBOX_PACKAGES[@]}"
  add_image_users "$rootfs"
  [[ -x "$rootfs/bin/busybox" ]] || die "the busybox-static package has no /bin/busybox"
  applets="$("$rootfs/bin/busybox" --list-full)" \
    || die "could not run $rootfs/bin/busybox --list-full (the images are x86-64: build on an x86-64 Linux machine)"
  while read -r applet; do
    [[ -n "$applet" && ! -e "$rootfs/$applet" && ! -L "$rootfs/$applet" ]] || continue
    mkdir -p "$(dirname "$rootfs/$applet")"
    ln -s /bin/busybox "$rootfs/$applet"
  done <<< "$applets"
  for applet in sh wget timeout; do
    [[ -L "$rootfs/bin/$applet" || -L "$rootfs/usr/bin/$applet" ]] || die "busybox has no $applet applet"
  done
  install -D -m 755 "$HERE/busybox-wget.sh" "$rootfs/usr/local/bin/wget"
  busybox_version="$(upstream_version busybox-static)"
  write busybox "stackbench/busybox:$busybox_version" "$IMAGE_USER" /home/nonroot \
    "busybox $busybox_version (static) with its applets; wget accepts -T; Debian $(debian_version busybox-static)" \
    --env "$PATH_ENV" --owned-by-user home/nonroot

  # postgres: the server, its libraries and data files, dash for the entrypoint; no Perl, no LLVM.
  rootfs="$work/postgres/rootfs"
  unpack_debian_packages "$work/locale/rootfs" "$work/locale" "$LOCALE_PACKAGE"
  [[ -d "$work/locale/rootfs/usr/lib/locale/C.utf8" ]] || die "$LOCALE_PACKAGE has no /usr/lib/locale/C.utf8"
  locale_version="$DEBIAN_VERSIONS"
  unpack_debian_packages "$rootfs" "$work/postgres" "${POSTGRES_PACKAGES[@]}"
  DEBIAN_VERSIONS+=" $locale_version"
  add_image_users "$rootfs"
  mkdir -p "$rootfs/usr/lib/locale"
  cp -a "$work/locale/rootfs/usr/lib/locale/C.utf8" "$rootfs/usr/lib/locale/"
  install -m 755 "$work/locale/rootfs/usr/bin/locale" "$rootfs/usr/bin/locale"
  [[ -x "$rootfs$PG_BIN/postgres" ]] || die "postgresql-$PG_MAJOR has no $PG_BIN/postgres"
  for program in "$rootfs$PG_BIN"/*; do
    [[ " ${PG_PROGRAMS[*]} " == *" $(basename "$program") "* ]] || rm -f "$program"
  done
  # The JIT provider and the bitcode it inlines (LLVM is left out), the extension build kit (pgxs) and the
  # manual pages.
  rm -rf "$rootfs$PG_LIB"/llvmjit* "$rootfs$PG_LIB/bitcode" "$rootfs$PG_LIB/pgxs" \
    "$rootfs/usr/share/postgresql/$PG_MAJOR/man"
  # glibc's iconv modules (PostgreSQL converts encodings itself; UTF-8 and Latin-1 stay built into glibc) and
  # the leap-second time zones: 10 MB nothing here loads.
  rm -rf "$rootfs/usr/lib/x86_64-linux-gnu/gconv" "$rootfs/usr/share/zoneinfo/right"
  # Data and Unix socket directories (Debian's compiled-in socket directory is /var/run/postgresql); both are
  # owned by the image user so the image also runs with no volumes on a writable root filesystem.
  mkdir -p "$rootfs/var/lib/postgresql" "$rootfs/var/run/postgresql"
  install -D -m 755 "$HERE/postgres-entrypoint.sh" "$rootfs/usr/local/bin/postgres-entrypoint"
  postgres_version="$(upstream_version "postgresql-$PG_MAJOR")"
  write postgres "stackbench/postgres:$postgres_version" "$IMAGE_USER" /home/nonroot \
    "PostgreSQL $postgres_version server; Debian $(debian_version "postgresql-$PG_MAJOR")" \
    --env "PATH=$PG_BIN:/usr/local/bin:/usr/bin:/bin" --env "LANG=C.UTF-8" \
    --env "PGDATA=/var/lib/postgresql/data" \
    --owned-by-user home/nonroot --owned-by-user var/lib/postgresql --owned-by-user var/run/postgresql \
    --entrypoint /usr/local/bin/postgres-entrypoint --stop-signal SIGINT
  rm -rf "$cache" && mv "$cache.partial" "$cache"
  # Images of older inputs (scripts, package versions) are never used again.
  find "$STACKBENCH_TOOLS/node-images" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
fi
mkdir -p "$out"
for tar in pause postgres busybox; do
  cp "$cache/$tar.tar" "$out/$tar.tar"
done
printf '%s\n' "$out/pause.tar" "$out/postgres.tar" "$out/busybox.tar"
