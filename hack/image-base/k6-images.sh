#!/usr/bin/env bash
# Builds the three images k6-operator runs, offline, the same way as the base image (Debian packages unpacked
# into a root filesystem, written by write_image.py as `docker save` tarballs), all running as user 65532:
#
#   k6-operator.tar   stackbench/k6-operator:<k6-operator version>  the controller, /manager (hack/install/k6-operator.sh)
#   k6-starter.tar    stackbench/k6-starter:<k6-operator version>   sh and curl: un-pauses the runners via k6's REST API
#   k6.tar            stackbench/k6:<k6 version>                    k6 (hack/install/k6.sh) with sh, mkdir, cat, grep for
#                                                                   k6-operator's initializer script
#
#   hack/image-base/k6-images.sh OUTPUT_DIR
#
# Takes the binaries from $STACKBENCH_K6_OPERATOR and $STACKBENCH_K6 (else from $STACKBENCH_TOOLS/env.sh). The
# tars are cached under $STACKBENCH_TOOLS/k6-images/<key>/, the key covering the binaries, the package lists and
# these scripts, and copied into OUTPUT_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE="$STACKBENCH_ROOT/hack/image-base"
source "$HERE/debian.sh"

out="${1:?usage: hack/image-base/k6-images.sh OUTPUT_DIR}"
if [[ -z "${STACKBENCH_K6_OPERATOR:-}" || -z "${STACKBENCH_K6:-}" ]] && [[ -f "$STACKBENCH_TOOLS/env.sh" ]]; then
  # shellcheck source=/dev/null
  source "$STACKBENCH_TOOLS/env.sh"
fi
for binary in STACKBENCH_K6_OPERATOR STACKBENCH_K6; do
  [[ -x "${!binary:-}" ]] || die "\$$binary does not name an executable ('${!binary:-}'): run hack/setup.sh k6 k6-operator first"
done
require_image_tools

IMAGE_USER="65532:65532"
PATH_ENV="PATH=/usr/local/bin:/usr/bin:/bin"
# What each image runs; debian_closure adds their libraries. Every image also gets base-files and netbase
# (os-release, services, protocols), as the base image does, without their dependencies (an awk).
BASE_PACKAGES=(base-files netbase)
CONTROLLER_PACKAGES=()
STARTER_PACKAGES=(dash curl)
RUNNER_PACKAGES=(dash coreutils grep)

key="$(cat "$STACKBENCH_K6_OPERATOR" "$STACKBENCH_K6" "$HERE/k6-images.sh" "$HERE/debian.sh" "$HERE/write_image.py" \
  | sha256sum | cut -c1-16)"
cache="$STACKBENCH_TOOLS/k6-images/$key"
if [[ ! -f "$cache/k6.tar" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$cache.partial"
  k6_version="$("$STACKBENCH_K6" version 2>/dev/null | sed -n 's/^k6 \(v[0-9][^ ]*\).*/\1/p' | head -1)"
  [[ -n "$k6_version" ]] || die "'$STACKBENCH_K6 version' printed no k6 version; rebuild it with hack/setup.sh k6"
  license_dir="$(dirname "$STACKBENCH_K6_OPERATOR")"

  # image NAME TAR_NAME ENTRYPOINT_JSON DESCRIPTION PACKAGE...: one rootfs, one image
  image() {
    local name="$1" tar="$2" entrypoint="$3" description="$4"; shift 4
    local rootfs="$work/$tar/rootfs" entry_args=() arg
    local packages=("${BASE_PACKAGES[@]}")
    (( $# == 0 )) || mapfile -t -O "${#packages[@]}" packages < <(debian_closure "$@")
    unpack_debian_packages "$rootfs" "$work/$tar" "${packages[@]}"
    add_image_users "$rootfs"
    if [[ "$tar" == k6-operator ]]; then
      install -D -m 755 "$STACKBENCH_K6_OPERATOR" "$rootfs/manager"
      install -D -m 644 "$license_dir/LICENSE" "$rootfs/usr/share/doc/k6-operator/LICENSE"
    elif [[ "$tar" == k6 ]]; then
      install -D -m 755 "$STACKBENCH_K6" "$rootfs/usr/bin/k6"
    fi
    for arg in $entrypoint; do entry_args+=(--entrypoint "$arg"); done
    python3 "$HERE/write_image.py" "$rootfs" "$cache.partial/$tar.tar" "$name" \
      --env "$PATH_ENV" --env "LANG=C.UTF-8" \
      --user "$IMAGE_USER" --workdir /home/nonroot --owned-by-user home/nonroot \
      "${entry_args[@]}" \
      --label "org.opencontainers.image.description=$description; Debian $DEBIAN_VERSIONS" \
      --created-by "hack/image-base/k6-images.sh (Debian packages + $tar)" \
      || die "writing the $name image tar failed"
    log "$(printf '%-40s %s' "$name" "$(du -h "$cache.partial/$tar.tar" | cut -f1)")"
  }
  image "stackbench/k6-operator:$K6_OPERATOR_VERSION" k6-operator /manager \
    "grafana/k6-operator $K6_OPERATOR_VERSION controller, built from source" "${CONTROLLER_PACKAGES[@]}"
  # k6-operator runs the starter as `sh -c "curl ..."` and sets its command, so no entrypoint is needed;
  # curl is the default one for a plain `docker run`.
  image "stackbench/k6-starter:$K6_OPERATOR_VERSION" k6-starter /usr/bin/curl \
    "k6-operator $K6_OPERATOR_VERSION starter: curl against the k6 runners' REST API" "${STARTER_PACKAGES[@]}"
  image "stackbench/k6:$k6_version" k6 /usr/bin/k6 \
    "k6 $k6_version runner and initializer for k6-operator" "${RUNNER_PACKAGES[@]}"
  rm -rf "$cache" && mv "$cache.partial" "$cache"
fi
mkdir -p "$out"
for tar in k6-operator k6-starter k6; do
  cp "$cache/$tar.tar" "$out/$tar.tar"
done
printf '%s\n' "$out/k6-operator.tar" "$out/k6-starter.tar" "$out/k6.tar"
