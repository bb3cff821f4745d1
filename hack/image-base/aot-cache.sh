#!/usr/bin/env bash
# Prepares the AOT cache of a Spring Boot app image (JDK 25's -XX:AOTCache): the classes the app loads at start,
# loaded and linked once at build time, so that every pod of the image starts sooner (on one CPU, Spring's start
# took 6.7-6.8 s instead of 10.7-11.5 s for webflux-app and 8.2 s instead of 12.8 s for mvc-app).
# Called by the `images` Maven profile of targets/ before Jib; writes OUT/app/aot/, which Jib adds to the image
# (the training's logs go next to OUT):
#
#   app.jar     the module's classes and resources as one jar (the JVM archives classes from jars only, and
#               Jib's exploded /app/classes and /app/resources are directories)
#   classpath   /app/aot/app.jar and then /app/libs/*.jar in Jib's order, for the entrypoint's `-cp @...`
#   app.aot     the cache, which the image's JDK_JAVA_OPTIONS names
#
#   aot-cache.sh --base IMAGE --classes DIR --dependencies FILE --main-class CLASS --cache true|false --out DIR
#                [-- APP-ARGS...]
#
# With --cache false (-Dstackbench.aot=false) OUT is left empty: the image starts from Jib's own classpath.
#
# The cache is made by a training start of the app in the base image's own Java runtime, at the paths the image
# has (/app/...), with the JVM options a 1-CPU, 1 GiB pod gets: the context is refreshed and the app exits without
# serving (spring.context.exit=onRefresh; APP-ARGS choose the profile and turn off what needs a database). No method
# profiles are recorded (-XX:-AOTRecordTraining): a measured JVM's JIT starts from nothing, as without the cache.
# The training runs chrooted in the base image's unpacked root filesystem (kept next to its tar), with the staged
# /app bind mounted there and the devices a container has (null, zero, random, urandom) bound into a /dev of its
# own, in namespaces of its own (mount, PID, network with only loopback): the mounts go with
# the namespace, nothing on the machine changes and nothing is reachable. A JVM whose options the cache does not fit
# (ZGC, heaps of 32 GB or more) starts without it, as a JVM always may.
#
# A registry base image has no runtime here to train with: build such images with -Dstackbench.aot=false (no cache,
# Jib's own classpath; hack/images.sh --base does). A training that fails fails the build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

base="" classes="" dependencies="" main_class="" out="" cache=true
app_args=()
while (( $# > 0 )); do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --classes) classes="$2"; shift 2 ;;
    --dependencies) dependencies="$2"; shift 2 ;;
    --main-class) main_class="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --) shift; app_args=("$@"); break ;;
    *) die "unknown argument '$1'; see the header of $0" ;;
  esac
done
if [[ "$cache" == false && -n "$out" ]]; then
  rm -rf "$out"
  mkdir -p "$out"
  exit 0
fi
[[ -n "$base" && -d "$classes" && -f "$dependencies" && -n "$main_class" && -n "$out" ]] \
  || die "usage: aot-cache.sh --base IMAGE --classes DIR --dependencies FILE --main-class CLASS --out DIR [-- ARGS]"

JAVA_DIR="/opt/java/openjdk"
FILE_TIME="@1"   # Jib's file modification time (EPOCH_PLUS_SECOND); the JVM checks the jars' times against the cache
TRAINING_JVM=(-XX:ActiveProcessorCount=1 -XX:MaxRAM=1073741824 -Xmx768m -XX:-UsePerfData)

aot="$out/app/aot"
logs="$(dirname "$out")"
rm -rf "$out"
mkdir -p "$aot"

# The classpath of the image, in Jib's order, with the names Jib gives the jars in /app/libs.
declare -A seen=()
classpath="/app/aot/app.jar"
libs=()
IFS=":" read -ra entries < "$dependencies" || true   # no newline at its end
for jar in "${entries[@]}"; do
  [[ -n "$jar" ]] || continue
  [[ -f "$jar" ]] || die "dependency $jar is not a jar file; build with 'package' so every module has its jar"
  name="$(basename "$jar")"
  [[ -z "${seen[$name]:-}" ]] || die "two dependencies are named $name; Jib would rename one, and the AOT classpath would not match"
  seen[$name]=1
  libs+=("$jar")
  classpath+=":/app/libs/$name"
done
printf '%s' "$classpath" > "$aot/classpath"

# One jar of the classes and resources, with fixed entry times so that equal inputs give an equal jar.
jdk_jar="${JAVA_HOME:+$JAVA_HOME/bin/}jar"
"$jdk_jar" --create --file "$aot/app.jar" --date 1980-01-01T00:00:02Z -C "$classes" . \
  || die "packing $classes into app.jar failed"

if [[ "$base" != tar://* ]]; then
  die "the base image $base is not a local tar: there is no Java runtime here to make the AOT cache with;" \
    "build with -Dstackbench.aot=false for images without it (hack/images.sh --base does)"
fi
base_tar="${base#tar://}"
[[ -f "$base_tar" ]] || die "base image $base_tar is missing; run hack/image-base/build.sh"

# The base image's root filesystem, unpacked once next to its tar (the tar's directory is keyed by its inputs).
rootfs="$(dirname "$base_tar")/rootfs"
if [[ ! -x "$rootfs$JAVA_DIR/bin/java" ]]; then
  staging="$(mktemp -d "$(dirname "$base_tar")/rootfs-XXXXXX")"
  layers="$(tar -xOf "$base_tar" manifest.json | python3 -c 'import json, sys; print(*json.load(sys.stdin)[0]["Layers"])')" \
    || { rm -rf "$staging"; die "reading the layers of $base_tar failed"; }
  mkdir "$staging/.layers"
  for layer in $layers; do
    { tar -xf "$base_tar" -C "$staging/.layers" "$layer" && tar -xf "$staging/.layers/$layer" -C "$staging" \
      && rm -f "$staging/.layers/$layer"; } || { rm -rf "$staging"; die "unpacking $base_tar failed"; }
  done
  rm -rf "$staging/.layers"
  mkdir -p "$staging/app" "$staging/proc" "$staging/tmp"
  if ! mv -T "$staging" "$rootfs" 2>/dev/null; then
    rm -rf "$staging"   # another build unpacked it first
  fi
fi

# /app as the image will have it: the libraries under Jib's names and times, and the aot directory.
stage="$(mktemp -d "${TMPDIR:-/tmp}/stackbench-aot-XXXXXX")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/libs"
for jar in "${libs[@]}"; do cp "$jar" "$stage/libs/"; done
cp -r "$aot" "$stage/aot"
find "$stage" -exec touch -h -d "$FILE_TIME" {} +

sandbox=(unshare --mount --pid --net --fork)
[[ "$(id -u)" == 0 ]] || sandbox+=(--user --map-root-user)
train() {
  "${sandbox[@]}" sh -c '
    set -e
    rootfs="$1" stage="$2"; shift 2
    mount --bind "$stage" "$rootfs/app"
    mount -t proc proc "$rootfs/proc"
    mount -t tmpfs tmpfs "$rootfs/tmp"
    # The devices a container has: without /dev/urandom the JVM seeds SecureRandom from thread timings, a wait of
    # about 10 s on one CPU that no pod has.
    mount -t tmpfs -o mode=755 tmpfs "$rootfs/dev"
    for device in null zero random urandom; do
      : > "$rootfs/dev/$device"
      mount --bind "/dev/$device" "$rootfs/dev/$device"
    done
    ip link set lo up 2>/dev/null || true
    exec chroot "$rootfs" "$@"' sh "$rootfs" "$stage" "$JAVA_DIR/bin/java" "$@"
}
app=(-cp @/app/aot/classpath -Dspring.context.exit=onRefresh "$main_class" --server.port=0
  --management.server.port=0 "${app_args[@]}")

start=$SECONDS
if ! train "${TRAINING_JVM[@]}" -XX:AOTCacheOutput=/app/aot/app.aot -XX:+UnlockDiagnosticVMOptions \
    -XX:-AOTRecordTraining "${app[@]}" > "$logs/aot-training.log" 2>&1 || [[ ! -s "$stage/aot/app.aot" ]]; then
  die "the training start that makes the AOT cache of $main_class failed (see $logs/aot-training.log);" \
    "where unshare cannot make namespaces, build with -Dstackbench.aot=false for images without the cache"
fi
# The cache must load at the paths and times of the image (-XX:AOTMode=on fails the start otherwise).
if ! train "${TRAINING_JVM[@]}" -XX:AOTCache=/app/aot/app.aot -XX:AOTMode=on -cp @/app/aot/classpath -version \
    > "$logs/aot-check.log" 2>&1; then
  die "the AOT cache of $main_class does not load (see $logs/aot-check.log)"
fi
cp "$stage/aot/app.aot" "$aot/app.aot"
log "AOT cache for $main_class: $(du -h "$aot/app.aot" | cut -f1) in $((SECONDS - start))s"
