#!/usr/bin/env bash
# Server CPU time (user + system, the backends' included) per one-row INSERT,
# PostgreSQL 15 vs tandemd side by side (pgbench, prepared, CLIENTS clients).
# On this 2-core machine the 4-client commit rate is bound by CPU, and CPU
# per commit depends little on other load, unlike commits/s.
#
#   bash bench/insert_cpu_vs_postgres.sh [CLIENTS] [INSERTS_PER_CLIENT] [ROUNDS]   (defaults 4, 3000, 2)
CLIENTS=${1:-4}
PER_CLIENT=${2:-3000}
ROUNDS=${3:-2}
source "$(dirname "$0")/lib.sh"
for sql in pg_sql td_sql; do $sql "CREATE TABLE ins (id bigint, payload text)"; done
cat >"$WORK/insert.sql" <<'SQL'
\set id random(1, 1000000000)
INSERT INTO ins VALUES (:id, 'payload');
SQL
chmod 644 "$WORK/insert.sql"
PG_PID=$(head -1 "$WORK/pg/postmaster.pid")
# utime + stime + cutime + cstime: a PostgreSQL backend's CPU is added to
# the postmaster's once it exits and is reaped.
ticks() { awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
for _ in $(seq 1 "$ROUNDS"); do
  for side in postgres tandem; do
    if [ $side = postgres ]; then pid=$PG_PID port=$PG_PORT user=postgres; else pid=$TD_PID port=$TD_PORT user=materialize; fi
    before=$(ticks "$pid")
    tps=$(pgbench -n -h 127.0.0.1 -p "$port" -U $user -f "$WORK/insert.sql" -M prepared -c "$CLIENTS" -j "$CLIENTS" \
      -t "$PER_CLIENT" $user 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    sleep 0.5  # the backends exit and are reaped
    after=$(ticks "$pid")
    python3 -c "print('%-9s %d client(s): %6.0f commits/s, %5.1f us server CPU per INSERT' % ('$side', $CLIENTS, $tps, ($after - $before) * 1e6 / $HZ / ($CLIENTS * $PER_CLIENT)))"
  done
done
