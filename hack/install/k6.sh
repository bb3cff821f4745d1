# k6 with the stackbench output (hack/k6/: k6 v1.8.1's command plus an output that writes per-second figures binned by
# each sample's own time stamp), built from the Go module proxy (no prebuilt binary download is possible or needed).
# Cached under a directory keyed by the sources, so a change to the output builds again and nothing else does.
install_k6() {
  local src="$STACKBENCH_ROOT/hack/k6" key dir
  key="$(cd "$src" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -not -name '*_test.go' \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
  dir="$STACKBENCH_TOOLS/k6-$K6_VERSION-stackbench-$key"
  grep -q "go.k6.io/k6 $K6_VERSION\$" "$src/go.mod" \
    || die "hack/k6/go.mod does not require go.k6.io/k6 $K6_VERSION (hack/lib.sh's K6_VERSION): make them agree"
  if [[ ! -x "$dir/k6" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build k6 $K6_VERSION: install Go 1.25 or newer and re-run hack/setup.sh"
    log "building k6 $K6_VERSION with the stackbench output from the Go module proxy (a few minutes on a cold cache)..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    (cd "$src" && GOFLAGS=-trimpath go build -o "$dir.partial/k6" .) \
      || die "building k6 failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_K6 "$dir/k6"
}
