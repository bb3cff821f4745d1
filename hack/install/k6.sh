# k6, built from the Go module proxy (no prebuilt binary download is possible or needed).
install_k6() {
  local dir="$STACKBENCH_TOOLS/k6-$K6_VERSION"
  if [[ ! -x "$dir/k6" ]]; then
    command -v go >/dev/null 2>&1 || die "Go is needed to build k6 $K6_VERSION: install Go 1.24 or newer and re-run hack/setup.sh"
    log "building k6 $K6_VERSION from the Go module proxy (a few minutes on a cold cache)..."
    mkdir -p "$dir.partial"
    GOBIN="$dir.partial" GOFLAGS=-trimpath go install "go.k6.io/k6@$K6_VERSION" \
      || die "building k6 failed; see the Go output above"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_K6 "$dir/k6"
}
