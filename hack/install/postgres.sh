# PostgreSQL server binaries (Debian). The tests and local mode start their own throwaway instance
# as an unprivileged user; nothing here starts a server.
find_pg_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x "$d/postgres" && -x "$d/initdb" && -x "$d/pg_ctl" ]] && { printf '%s' "$d"; return 0; }
  done
  return 1
}

install_postgres() {
  local bindir
  if ! bindir="$(find_pg_bindir)"; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
      log "installing PostgreSQL server binaries from Debian..."
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null \
        || die "apt-get install postgresql failed"
      bindir="$(find_pg_bindir)" || die "PostgreSQL installed but no server binaries under /usr/lib/postgresql/*/bin"
    else
      die "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: install them (Debian: apt-get install postgresql) and re-run hack/setup.sh"
    fi
  fi
  command -v setpriv >/dev/null 2>&1 || die "setpriv (util-linux) is needed to run PostgreSQL as an unprivileged user"
  provide STACKBENCH_PG_BIN "$bindir"
}
