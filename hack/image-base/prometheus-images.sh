#!/usr/bin/env bash
# Builds the images the chart's kube-prometheus-stack dependency runs, offline, the same way as k6-images.sh
# (Debian's base-files and netbase unpacked into a root filesystem, written by write_image.py as `docker save`
# tarballs), all running as user 65532, the binaries where the upstream images have them:
#
#   prometheus-operator.tar         stackbench/prometheus-operator:<version>         /bin/operator
#   prometheus-config-reloader.tar  stackbench/prometheus-config-reloader:<version>  /bin/prometheus-config-reloader
#                                   (the operator names this path as the command of the containers it adds)
#   prometheus.tar                  stackbench/prometheus:<version>                  /bin/prometheus, working in
#                                                                                    /prometheus (its data)
#   postgres-exporter.tar           stackbench/postgres-exporter:<version>           /bin/postgres_exporter (beside
#                                                                                    each run's own database)
#
#   hack/image-base/prometheus-images.sh OUTPUT_DIR
#
# Takes the binaries from $STACKBENCH_PROMETHEUS_OPERATOR, $STACKBENCH_PROMETHEUS_CONFIG_RELOADER and
# $STACKBENCH_PROMETHEUS, $STACKBENCH_POSTGRES_EXPORTER (else from $STACKBENCH_TOOLS/env.sh; hack/setup.sh prometheus-stack builds them). The
# tars are cached under $STACKBENCH_TOOLS/prometheus-images/<key>/, the key covering the binaries and these
# scripts, and copied into OUTPUT_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE="$STACKBENCH_ROOT/hack/image-base"
source "$HERE/debian.sh"

out="${1:?usage: hack/image-base/prometheus-images.sh OUTPUT_DIR}"
binaries=(STACKBENCH_PROMETHEUS_OPERATOR STACKBENCH_PROMETHEUS_CONFIG_RELOADER STACKBENCH_PROMETHEUS
  STACKBENCH_POSTGRES_EXPORTER)
if [[ -z "${STACKBENCH_PROMETHEUS_OPERATOR:-}" || -z "${STACKBENCH_PROMETHEUS_CONFIG_RELOADER:-}" \
  || -z "${STACKBENCH_PROMETHEUS:-}" || -z "${STACKBENCH_POSTGRES_EXPORTER:-}" ]] && [[ -f "$STACKBENCH_TOOLS/env.sh" ]]; then
  # shellcheck source=/dev/null
  source "$STACKBENCH_TOOLS/env.sh"
fi
for binary in "${binaries[@]}"; do
  [[ -x "${!binary:-}" ]] \
    || die "\$$binary does not name an executable ('${!binary:-}'): run hack/setup.sh prometheus-stack first"
done
require_image_tools

key="$(cat "$STACKBENCH_PROMETHEUS_OPERATOR" "$STACKBENCH_PROMETHEUS_CONFIG_RELOADER" "$STACKBENCH_PROMETHEUS" \
  "$STACKBENCH_POSTGRES_EXPORTER" \
  "$HERE/prometheus-images.sh" "$HERE/debian.sh" "$HERE/write_image.py" | sha256sum | cut -c1-16)"
cache="$STACKBENCH_TOOLS/prometheus-images/$key"
tars=(prometheus-operator prometheus-config-reloader prometheus postgres-exporter)
if [[ ! -f "$cache/postgres-exporter.tar" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$cache.partial"
  operator_version="$PROMETHEUS_OPERATOR_VERSION" prometheus_version="$PROMETHEUS_VERSION"
  # The versions the binaries print must be the ones the tags name: a stale build would be mislabelled.
  "$STACKBENCH_PROMETHEUS_OPERATOR" --version 2>&1 | grep -q "version ${operator_version#v}" \
    || die "$STACKBENCH_PROMETHEUS_OPERATOR is not prometheus-operator $operator_version: run hack/setup.sh prometheus-stack"
  "$STACKBENCH_PROMETHEUS" --version 2>&1 | grep -q "version ${prometheus_version#v}" \
    || die "$STACKBENCH_PROMETHEUS is not Prometheus $prometheus_version: run hack/setup.sh prometheus-stack"
  "$STACKBENCH_POSTGRES_EXPORTER" --version 2>&1 | grep -q "version ${POSTGRES_EXPORTER_VERSION#v}" \
    || die "$STACKBENCH_POSTGRES_EXPORTER is not postgres_exporter $POSTGRES_EXPORTER_VERSION: run hack/setup.sh prometheus-stack"

  # image NAME TAR BINARY WORKDIR DESCRIPTION: base-files and netbase, the binary as /bin/<its name>, its licence.
  image() {
    local name="$1" tar="$2" binary="$3" workdir="$4" description="$5"
    local rootfs="$work/$tar/rootfs" program
    program="$(basename "$binary")"
    unpack_debian_packages "$rootfs" "$work/$tar" base-files netbase
    add_image_users "$rootfs"
    install -D -m 755 "$binary" "$rootfs/bin/$program"
    install -D -m 644 "$(dirname "$binary")"/LICENSE-* -t "$rootfs/usr/share/doc/$tar"
    mkdir -p "$rootfs$workdir"
    python3 "$HERE/write_image.py" "$rootfs" "$cache.partial/$tar.tar" "$name" \
      --env "PATH=/usr/local/bin:/usr/bin:/bin" --env "LANG=C.UTF-8" \
      --user 65532:65532 --workdir "$workdir" --owned-by-user "${workdir#/}" --entrypoint "/bin/$program" \
      --label "org.opencontainers.image.description=$description; Debian $DEBIAN_VERSIONS" \
      --created-by "hack/image-base/prometheus-images.sh (Debian packages + $program)" \
      || die "writing the $name image tar failed"
    log "$(printf '%-48s %s' "$name" "$(du -h "$cache.partial/$tar.tar" | cut -f1)")"
  }
  image "stackbench/prometheus-operator:$operator_version" prometheus-operator "$STACKBENCH_PROMETHEUS_OPERATOR" \
    /home/nonroot "prometheus-operator $operator_version, built from source"
  image "stackbench/prometheus-config-reloader:$operator_version" prometheus-config-reloader \
    "$STACKBENCH_PROMETHEUS_CONFIG_RELOADER" /home/nonroot \
    "prometheus-config-reloader $operator_version (prometheus-operator), built from source"
  image "stackbench/prometheus:$prometheus_version" prometheus "$STACKBENCH_PROMETHEUS" /prometheus \
    "Prometheus $prometheus_version, built from source without the web UI's assets"
  image "stackbench/postgres-exporter:$POSTGRES_EXPORTER_VERSION" postgres-exporter "$STACKBENCH_POSTGRES_EXPORTER" \
    /home/nonroot "postgres_exporter $POSTGRES_EXPORTER_VERSION (prometheus-community), built from source"
  rm -rf "$cache" && mv "$cache.partial" "$cache"
fi
mkdir -p "$out"
for tar in "${tars[@]}"; do
  cp "$cache/$tar.tar" "$out/$tar.tar"
  printf '%s\n' "$out/$tar.tar"
done
