#!/usr/bin/env bash
# Checks Grafana dashboard JSON files against Grafana's own dashboard schema: the Dashboard type @grafana/schema
# publishes, with the TypeScript compiler (an unknown field, a wrong type or a missing required field fails, as Grafana
# itself would reject or silently drop it). Grafana cannot run here; its schema package can.
#
#   hack/check-dashboard.sh [FILE.json...]     (default: the chart's dashboards)
#
# Errors are printed as FILE:LINE:COLUMN: message. Needs hack/setup.sh grafana-schema.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [[ -z "${STACKBENCH_GRAFANA_SCHEMA:-}" && -f "$STACKBENCH_TOOLS/env.sh" ]]; then
  # shellcheck source=/dev/null
  source "$STACKBENCH_TOOLS/env.sh"
fi
schema="${STACKBENCH_GRAFANA_SCHEMA:-}"
[[ -n "$schema" && -f "$schema/node_modules/typescript/bin/tsc" ]] \
  || die "Grafana's dashboard schema is not installed: run hack/setup.sh grafana-schema"
command -v node >/dev/null 2>&1 || die "node (Node.js) is needed to run the TypeScript compiler"

files=("$@")
(( ${#files[@]} > 0 )) || files=("$STACKBENCH_ROOT"/charts/stackbench/dashboards/*.json)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
names=()
for i in "${!files[@]}"; do
  file="${files[$i]}"
  [[ -f "$file" ]] || die "no dashboard file at '$file'"
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file" 2>/dev/null \
    || die "'$file' is not valid JSON"
  # The JSON starts on line 2 of the TypeScript file, so its lines are the file's minus one.
  { printf "import type { Dashboard } from '@grafana/schema';\nexport const dashboard = ("
    cat "$file"
    printf ') satisfies Dashboard;\n'; } > "$work/dashboard$i.ts"
  names+=("\"dashboard$i.ts\"")
done
cat > "$work/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "strict": true, "noEmit": true, "target": "es2022", "module": "es2022", "moduleResolution": "bundler",
    "skipLibCheck": true, "types": [],
    "paths": {"@grafana/schema": ["$schema/node_modules/@grafana/schema/dist/types/index.d.ts"]}
  },
  "files": [$(IFS=,; echo "${names[*]}")]
}
JSON
if output="$(cd "$work" && node "$schema/node_modules/typescript/bin/tsc" -p . --pretty false 2>&1)"; then
  log "${#files[@]} dashboard(s) follow Grafana's dashboard schema (@grafana/schema in $(basename "$schema"))"
  exit 0
fi
# dashboardN.ts(LINE,COL): ... -> FILE:LINE-1:COL: ...
while IFS= read -r line; do
  if [[ "$line" =~ ^dashboard([0-9]+)\.ts\(([0-9]+),([0-9]+)\):\ (.*)$ ]]; then
    printf '%s:%d:%s: %s\n' "${files[${BASH_REMATCH[1]}]}" "$(( BASH_REMATCH[2] - 1 ))" "${BASH_REMATCH[3]}" "${BASH_REMATCH[4]}" >&2
  else
    printf '%s\n' "$line" >&2
  fi
done <<< "$output"
die "the dashboard(s) above do not follow Grafana's dashboard schema: fix the fields named"
