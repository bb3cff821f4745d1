# Grafana's own dashboard schema, as the TypeScript types it publishes in @grafana/schema (Apache-2.0; Grafana itself
# cannot be installed here), and the TypeScript compiler that checks the chart's dashboard against them
# (hack/check-dashboard.sh), both from the npm registry.
GRAFANA_SCHEMA_VERSION="13.2.3"
TYPESCRIPT_VERSION="5.9.3"

install_grafana_schema() {
  local dir="$STACKBENCH_TOOLS/grafana-schema-$GRAFANA_SCHEMA_VERSION-ts$TYPESCRIPT_VERSION"
  if [[ ! -f "$dir/node_modules/@grafana/schema/dist/types/index.d.ts" \
    || ! -f "$dir/node_modules/typescript/bin/tsc" ]]; then
    command -v npm >/dev/null 2>&1 || die "npm (Node.js) is needed to fetch Grafana's dashboard schema: install Node.js and re-run hack/setup.sh"
    log "fetching @grafana/schema $GRAFANA_SCHEMA_VERSION and typescript $TYPESCRIPT_VERSION from the npm registry..."
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    npm install --no-audit --no-fund --silent --prefix "$dir.partial" \
      "@grafana/schema@$GRAFANA_SCHEMA_VERSION" "typescript@$TYPESCRIPT_VERSION" \
      || die "npm install of @grafana/schema failed; check that the npm registry is reachable"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  provide STACKBENCH_GRAFANA_SCHEMA "$dir"
}
