# Shared set-up for the side-by-side benchmark scripts: a throwaway
# PostgreSQL 15 cluster and a tandemd, each on a free loopback port, both
# removed on exit. Sets WORK, PG_PORT, TD_PORT; `as_pg` runs a command as the
# postgres user when root. Needs tandemd ($TANDEMD, default build/bin/tandemd)
# and the postgresql package.
set -euo pipefail
cd "$(dirname "$0")/.."
TANDEMD=${TANDEMD:-build/bin/tandemd}
[ -x "$TANDEMD" ] || { echo "build tandemd first: bash scripts/build.sh"; exit 1; }
PGBIN=$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)
[ -x "$PGBIN/initdb" ] || PGBIN=/usr/lib/postgresql/15/bin

# BENCH_TMP=/dev/shm puts both servers on tmpfs (fsync free: the rest of
# the commit path side by side, without the shared disk).
WORK=$(mktemp -d "${BENCH_TMP:-/tmp}/tandem-bench-XXXXXX")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PG_PORT=$(free_port)
TD_PORT=$(free_port)

as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres: "$WORK"
as_pg "$PGBIN/initdb" -D "$WORK/pg" -A trust -U postgres >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w \
  -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK" start >/dev/null
"$TANDEMD" --listen 127.0.0.1:$TD_PORT --data-dir "$WORK/td" --log-level warn >"$WORK/td.log" 2>&1 &
TD_PID=$!
cleanup() {
  kill -TERM $TD_PID 2>/dev/null || true
  wait $TD_PID 2>/dev/null || true
  as_pg "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 200); do pg_isready -q -h 127.0.0.1 -p $TD_PORT -U materialize && break; sleep 0.05; done

# psql against either server: pg_sql SQL / td_sql SQL
pg_sql() { psql -X -q -At -h 127.0.0.1 -p $PG_PORT -U postgres postgres -c "$1"; }
td_sql() { psql -X -q -At -h 127.0.0.1 -p $TD_PORT -U materialize materialize -c "$1"; }

# load_grouped_t ROWS GROUPS: the same table t(k int, v int) in both servers,
# row i = (i % GROUPS, i), loaded by COPY from one file.
load_grouped_t() {
  python3 -c "
with open('$WORK/t.txt', 'w') as f:
    for i in range($1):
        f.write(f'{i % $2}\t{i}\n')
"
  chmod 644 "$WORK/t.txt"
  pg_sql "CREATE TABLE t (k int, v int)"
  td_sql "CREATE TABLE t (k int, v int)"
  pg_sql "\\copy t FROM '$WORK/t.txt'"
  td_sql "\\copy t FROM '$WORK/t.txt'"
}
