#!/bin/sh
# `wget` of the stackbench/busybox image (hack/image-base/node-images.sh), first on PATH before busybox's own
# applet link. Debian bookworm builds busybox without wget's timeout support, and its wget then crashes
# (SIGSEGV) on `-T SECONDS` instead of ignoring it. This wrapper takes -T SECONDS, -TSECONDS and
# --timeout=SECONDS off the arguments and runs busybox wget under busybox timeout instead, which bounds the
# whole transfer rather than each network read: the same outcome for the short requests the chart's test
# pod makes (`wget -q -O- -T 5 URL`). Every other argument reaches busybox wget unchanged.
timeout=
count=$#
while [ "$count" -gt 0 ]; do
  argument=$1
  shift
  count=$((count - 1))
  case $argument in
    -T)
      if [ "$count" -eq 0 ]; then
        echo "wget: option requires an argument: -T" >&2
        exit 1
      fi
      timeout=$1
      shift
      count=$((count - 1))
      ;;
    -T*) timeout=${argument#-T} ;;
    --timeout=*) timeout=${argument#--timeout=} ;;
    *) set -- "$@" "$argument" ;;
  esac
done
if [ -z "$timeout" ]; then
  exec /bin/busybox wget "$@"
fi
case $timeout in
  *[!0-9]*) echo "wget: invalid timeout '$timeout': whole seconds expected" >&2; exit 1 ;;
esac
# Not exec'd: busybox timeout runs the program in its own process and signals it from a child. In a container
# that process would be PID 1, which ignores signals it has no handler for, so the shell stays PID 1 instead.
/bin/busybox timeout "$timeout" /bin/busybox wget "$@"
