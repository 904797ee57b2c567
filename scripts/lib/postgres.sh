# Sourced by scripts/cluster-demo.sh and tests/service/with_postgres.sh: a throwaway
# PostgreSQL 15 (Debian's postgresql-15) in a temporary directory, on a free
# loopback port, trusting local connections as the superuser "zkpipe".
#
#   pg_available || exit 77     pg_create (sets pg_url)     pg_stop / pg_start
#   pg_query SQL                pg_destroy (also from a trap)
#
# PostgreSQL refuses to run as root: as root, the server runs as the postgres user
# (created by the package) in a directory it owns.
pg_bin=/usr/lib/postgresql/15/bin
pg_dir=
pg_as=()
pg_port=
pg_url=

pg_available() { [[ -x $pg_bin/postgres && -x $pg_bin/initdb ]]; }

pg_start() {
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -t 30 \
    -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off" start > /dev/null
}

pg_stop() { "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop > /dev/null; }

pg_create() {
  pg_dir=$(mktemp -d)
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$pg_dir"
    pg_as=(runuser -u postgres --)
  fi
  pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if ! "${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U zkpipe --no-sync > "$pg_dir/initdb.log" 2>&1; then
    cat "$pg_dir/initdb.log" >&2
    return 1
  fi
  pg_start
  pg_url="postgresql://zkpipe@127.0.0.1:$pg_port/postgres"
}

pg_query() { "$pg_bin/psql" -X -A -t -q -h 127.0.0.1 -p "$pg_port" -U zkpipe -d postgres -c "$1"; }

pg_destroy() {
  [[ -n $pg_dir ]] || return 0
  if [[ -f $pg_dir/data/postmaster.pid ]]; then
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop > /dev/null 2>&1 || true
  fi
  rm -rf "$pg_dir"
  pg_dir=
}
