#!/usr/bin/env bash
# Builds the four stackbench container images as tarballs with Jib (no Docker daemon needed), the three
# images k6-operator runs (hack/image-base/k6-images.sh), the three a real-node test cluster runs besides
# (hack/image-base/node-images.sh; check them with hack/image-base/test-node-images.sh) and the three of the
# chart's kube-prometheus-stack (hack/image-base/prometheus-images.sh):
#
#   operator/target/images/operator.tar                     stackbench/operator:<version>
#   targets/mvc-app/target/images/mvc-app.tar               stackbench/mvc-app:<version>
#   targets/webflux-app/target/images/webflux-app.tar       stackbench/webflux-app:<version>
#   targets/delay-service/target/images/delay-service.tar   stackbench/delay-service:<version>
#   operator/target/images/k6-operator.tar                  stackbench/k6-operator:<k6-operator version>
#   operator/target/images/k6-starter.tar                   stackbench/k6-starter:<k6-operator version>
#   operator/target/images/k6.tar                           stackbench/k6:<k6 version>
#   operator/target/images/pause.tar                        stackbench/pause:catatonit-<catatonit version>
#   operator/target/images/postgres.tar                     stackbench/postgres:<PostgreSQL 15 version>
#   operator/target/images/busybox.tar                      stackbench/busybox:<busybox version>
#   operator/target/images/prometheus-operator.tar          stackbench/prometheus-operator:<operator version>
#   operator/target/images/prometheus-config-reloader.tar   stackbench/prometheus-config-reloader:<operator version>
#   operator/target/images/prometheus.tar                   stackbench/prometheus:<Prometheus version>
#
#   hack/images.sh                              build on a base image assembled offline (hack/image-base), the
#                                               app images with an AOT cache (hack/image-base/aot-cache.sh)
#   hack/images.sh --base eclipse-temurin:25-jre  build on a registry base image instead, without the k6, node
#                                               and Prometheus images (k6-operator then uses its own from ghcr.io
#                                               and docker.io, a cluster its own pause, postgres and busybox,
#                                               kube-prometheus-stack quay.io's) and
#                                               without the apps' AOT cache
#   hack/images.sh --kind [CLUSTER]             then load them into a kind cluster (default: stackbench)
#
# Extra arguments after `--` go to Maven (e.g. -- -o for offline).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$STACKBENCH_ROOT"

IMAGE_MODULES=(operator targets/mvc-app targets/webflux-app targets/delay-service)

base=""
kind_cluster=""
load_into_kind=false
maven_args=()
while (( $# > 0 )); do
  case "$1" in
    --base) base="${2:?--base needs an image reference, e.g. eclipse-temurin:25-jre}"; shift 2 ;;
    --kind)
      load_into_kind=true
      if [[ -n "${2:-}" && "${2}" != -* ]]; then kind_cluster="$2"; shift; fi
      shift ;;
    --) shift; maven_args=("$@"); break ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1'; see hack/images.sh --help" ;;
  esac
done

# Built only with the offline base: with a registry, the upstream images of k6-operator and the cluster are used.
offline_images=true
if [[ -z "$base" ]]; then
  base_tar="$("$STACKBENCH_ROOT/hack/image-base/build.sh")"
  base="tar://$base_tar"
else
  offline_images=false
  maven_args=(-Dstackbench.k6-images.skip=true -Dstackbench.node-images.skip=true \
    -Dstackbench.prometheus-images.skip=true -Dstackbench.aot=false \
    "${maven_args[@]}")
fi

start=$SECONDS
log "building the images on $base"
modules="$(IFS=,; echo "${IMAGE_MODULES[*]}")"
mvn_run -q -Pimages -DskipTests "-Dstackbench.image.base=$base" -Djib.disableUpdateChecks=true \
  -pl "$modules" -am package "${maven_args[@]}" \
  || die "the image build failed; see the Maven output above"

tars=()
for module in "${IMAGE_MODULES[@]}"; do
  tar="$module/target/images/$(basename "$module").tar"
  [[ -f "$tar" ]] || die "expected $tar after the build, but it is missing"
  tars+=("$tar")
done
if [[ "$offline_images" == true ]]; then
  for name in k6-operator k6-starter k6 pause postgres busybox prometheus-operator prometheus-config-reloader prometheus; do
    tars+=("operator/target/images/$name.tar")
  done
fi
for tar in "${tars[@]}"; do
  [[ -f "$tar" ]] || die "expected $tar after the build, but it is missing"
  log "$(printf '%-48s %s' "$tar" "$(du -h "$tar" | cut -f1)")"
done
log "images built in $((SECONDS - start))s"

if [[ "$load_into_kind" == true ]]; then
  "$STACKBENCH_ROOT/hack/kind-load.sh" ${kind_cluster:+--name "$kind_cluster"} "${tars[@]}"
fi
