#!/bin/sh
# Entrypoint of the stackbench/postgres image (hack/image-base/node-images.sh): creates the database cluster
# on the first start, then runs PostgreSQL in the foreground as this process, so the container runtime's
# signals (SIGTERM: smart shutdown, SIGINT: fast shutdown) reach the postmaster directly.
#
# Environment:
#   POSTGRES_PASSWORD       the superuser's password; needed only when the cluster is created
#   POSTGRES_PASSWORD_FILE  or a file holding it (its first line), e.g. a mounted Secret key
#   POSTGRES_USER           name of the superuser (default: postgres)
#   POSTGRES_DB             database created with the cluster (default: the superuser's name)
#   POSTGRES_INITDB_ARGS    extra initdb options, split at blanks (optional)
#   PGDATA                  the cluster's directory (image default: /var/lib/postgresql/data)
#
# Arguments: options for postgres, e.g. `-c max_connections=300` (they override postgresql.conf, so
# `-c listen_addresses=127.0.0.1 -c port=5433` works too). A first argument `postgres` is skipped; any other
# first argument that is not an option is run as a command instead (e.g. `psql ...`), without initialising.
#
# The cluster listens on all addresses and accepts password (SCRAM-SHA-256) logins over TCP from anywhere,
# and any local user over the Unix socket (in /var/run/postgresql unless unix_socket_directories says
# otherwise). The directory holding PGDATA must be writable by the image user: mount the volume at
# /var/lib/postgresql, not at PGDATA itself, so initdb can create PGDATA with the owner and mode PostgreSQL
# insists on. Only dash builtins are used here besides the PostgreSQL programs: the image has no coreutils.
# No file name globbing: POSTGRES_INITDB_ARGS is split at blanks only.
set -euf

fail() {
  printf 'postgres-entrypoint: error: %s\n' "$*" >&2
  exit 1
}

# Prints NAME as an SQL identifier: in double quotes, with embedded double quotes doubled.
quote_identifier() {
  rest=$1
  quoted=
  while :; do
    case $rest in
      *\"*)
        quoted="$quoted${rest%%\"*}\"\""
        rest=${rest#*\"}
        ;;
      *) break ;;
    esac
  done
  printf '"%s"' "$quoted$rest"
}

# Sets `password` from POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE.
read_password() {
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    [ -z "${POSTGRES_PASSWORD:-}" ] || fail "set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE, not both"
    [ -r "$POSTGRES_PASSWORD_FILE" ] || fail "POSTGRES_PASSWORD_FILE '$POSTGRES_PASSWORD_FILE' is not a readable file"
    password=
    # A last line without a newline still counts: read fails at end of file but has set the variable.
    IFS= read -r password < "$POSTGRES_PASSWORD_FILE" || [ -n "$password" ] \
      || fail "POSTGRES_PASSWORD_FILE '$POSTGRES_PASSWORD_FILE' is empty"
  else
    password=${POSTGRES_PASSWORD:-}
  fi
  [ -n "$password" ] || fail "the database cluster in $PGDATA does not exist yet and no superuser password is set: \
set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE"
  case $password in
    *"$newline"*) fail "the superuser password must be a single line" ;;
  esac
}

# Creates the cluster in PGDATA: superuser with password, SCRAM logins over TCP, the database POSTGRES_DB.
initialise() {
  read_password
  case $database in
    *"$newline"*) fail "POSTGRES_DB must not contain a line break" ;;
  esac
  printf 'postgres-entrypoint: creating the database cluster in %s (superuser %s, database %s)\n' \
    "$PGDATA" "$user" "$database" >&2
  # The password goes through a pipe, never onto the disk or the command line. This shell created the pipe,
  # so initdb (same user) may open it again as /dev/stdin. C.UTF-8 is glibc's own locale: no locales package.
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of options
  printf '%s\n' "$password" | initdb --pgdata="$PGDATA" --username="$user" --pwfile=/dev/stdin \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 \
    ${POSTGRES_INITDB_ARGS:-} >&2 \
    || fail "initdb failed (see above); if $PGDATA is a mount point, mount the volume at its parent directory"
  unset password

  # Replaces initdb's pg_hba.conf, which allows TCP logins from the loopback addresses only.
  {
    printf '# Written by the image entrypoint on the first start.\n'
    printf '# TYPE  DATABASE     USER  ADDRESS    METHOD\n'
    printf 'local   all          all              trust\n'
    printf 'local   replication  all              trust\n'
    printf 'host    all          all   0.0.0.0/0  scram-sha-256\n'
    printf 'host    all          all   ::/0       scram-sha-256\n'
    printf 'host    replication  all   0.0.0.0/0  scram-sha-256\n'
    printf 'host    replication  all   ::/0       scram-sha-256\n'
  } > "$PGDATA/pg_hba.conf"
  {
    printf '\n# Set by the image entrypoint on the first start.\n'
    printf "listen_addresses = '*'\n"
    # The image leaves out LLVM, so there is no JIT provider to load.
    printf 'jit = off\n'
  } >> "$PGDATA/postgresql.conf"

  if [ "$database" != postgres ]; then
    # A stand-alone backend creates the database without opening any socket; exit_on_error makes a failed
    # statement end it with a non-zero status.
    printf 'CREATE DATABASE %s;\n' "$(quote_identifier "$database")" \
      | postgres --single -D "$PGDATA" -c exit_on_error=on postgres > /dev/null \
      || fail "creating database '$database' failed (see above); empty $PGDATA before the next start"
  fi
  printf 'postgres-entrypoint: database cluster ready\n' >&2
}

newline='
'
case ${1:-} in
  '' | -*) ;;
  postgres) shift ;;
  *) exec "$@" ;;
esac
# Options that only print something need no cluster.
for argument in "$@"; do
  case $argument in
    -V | --version | -\? | --help | --describe-config) exec postgres "$@" ;;
  esac
done

: "${PGDATA:?PGDATA must name the cluster directory}"
export PGDATA
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
# The configuration files written here are for this user only (initdb sets the modes of its own files).
umask 077

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  initialise
fi
exec postgres "$@"
