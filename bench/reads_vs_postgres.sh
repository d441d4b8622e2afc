#!/usr/bin/env bash
# Reads: tandemd against a throwaway PostgreSQL
# 15, the same pgbench command side by side in one run.
#
#  (a) point lookups: `pgbench -S -M prepared` (SELECT abalance FROM
#      pgbench_accounts WHERE aid = $1) over pgbench -i -s SCALE data. tandem
#      gets CREATE INDEX ON pgbench_accounts (aid) (the fast path: a literal
#      lookup, checked by EXPLAIN); PostgreSQL has its primary key. 1 and 4
#      clients: tps and average latency.
#  (b) a temporary dataflow: a join of two small indexed tables (JOIN_ROWS
#      rows each) that tandem answers with a one-shot peek dataflow (checked
#      by EXPLAIN), one client in a closed loop, prepared; p50/p99 from
#      pgbench's per-transaction log.
#
#   bash bench/reads_vs_postgres.sh [SECONDS_PER_RUN] [SCALE] [JOIN_ROWS]   (defaults 10, 1, 100)
#
# tandemd is $TANDEMD (default build/bin/tandemd). Needs the postgresql package.
SECONDS_PER_RUN=${1:-10}
SCALE=${2:-1}
JOIN_ROWS=${3:-100}
source "$(dirname "$0")/lib.sh"

# pgbench -i's vacuum and primary-key steps are PostgreSQL-only: tandem gets
# drop, create, generate (client side) and an index.
pgbench -q -i -s "$SCALE" -h 127.0.0.1 -p $PG_PORT -U postgres postgres >/dev/null 2>&1
pgbench -q -i -s "$SCALE" -I dtg -h 127.0.0.1 -p $TD_PORT -U materialize materialize >/dev/null 2>&1
td_sql "CREATE INDEX pgbench_accounts_aid ON pgbench_accounts (aid)"
td_sql "EXPLAIN SELECT abalance FROM pgbench_accounts WHERE aid = 5" | grep -q "(lookup)" ||
  { echo "tandem does not plan pgbench -S as an index lookup"; exit 1; }
# The first read waits for the index to hydrate.
td_sql "SELECT abalance FROM pgbench_accounts WHERE aid = 1" >/dev/null

for sql in pg_sql td_sql; do
  $sql "CREATE TABLE ja (id int, v int)"
  $sql "CREATE TABLE jb (id int, w int)"
  $sql "INSERT INTO ja SELECT g, g * 2 FROM generate_series(1, $JOIN_ROWS) g"
  $sql "INSERT INTO jb SELECT g, g * 3 FROM generate_series(1, $JOIN_ROWS) g"
  $sql "CREATE INDEX ja_id ON ja (id)"
  $sql "CREATE INDEX jb_id ON jb (id)"
done
pg_sql "VACUUM ANALYZE ja, jb" >/dev/null
JOIN="SELECT ja.id, ja.v, jb.w FROM ja JOIN jb ON ja.id = jb.id"
td_sql "EXPLAIN $JOIN" | grep -q "fast path" && { echo "the join must be a peek dataflow"; exit 1; }
[ "$(td_sql "$JOIN" | wc -l)" -eq "$JOIN_ROWS" ] || { echo "wrong join result on tandem"; exit 1; }
echo "$JOIN;" >"$WORK/join.sql"
chmod 644 "$WORK/join.sql"
[ "$(id -u)" -eq 0 ] && chmod 777 "$WORK"

# tps PORT USER DB CLIENTS -> "tps latency_us"
lookup() {
  local out
  out=$(pgbench -n -S -M prepared -h 127.0.0.1 -p "$1" -U "$2" -c "$4" -j "$4" -T "$SECONDS_PER_RUN" "$3" 2>&1)
  echo "$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p') $(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')"
}

# join PORT USER DB TAG -> "p50_us p99_us tps"
join() {
  local dir="$WORK/log-$4"
  mkdir -p "$dir"
  (cd "$dir" && pgbench -n -M prepared -f "$WORK/join.sql" -h 127.0.0.1 -p "$1" -U "$2" -c 1 -j 1 \
     -T "$SECONDS_PER_RUN" -l "$3" >/dev/null 2>&1)
  # Log lines: client_id transaction_no time(µs) script_no time_epoch time_us.
  cat "$dir"/pgbench_log.* | python3 -c "
import sys
lat = sorted(int(l.split()[2]) for l in sys.stdin if l.strip())
print(lat[len(lat) // 2], lat[min(len(lat) - 1, len(lat) * 99 // 100)], round(len(lat) / $SECONDS_PER_RUN))"
}

echo "(a) pgbench -S -M prepared, scale $SCALE, ${SECONDS_PER_RUN}s per run"
printf "%-8s %12s %12s %12s %14s %8s\n" clients pg_tps tandem_tps pg_lat_us tandem_lat_us ratio
for clients in 1 4; do
  read -r pg_tps pg_lat < <(lookup $PG_PORT postgres postgres $clients)
  read -r td_tps td_lat < <(lookup $TD_PORT materialize materialize $clients)
  printf "%-8s %12.0f %12.0f %12.1f %14.1f %7.2fx\n" $clients "$pg_tps" "$td_tps" \
    "$(python3 -c "print($pg_lat*1000)")" "$(python3 -c "print($td_lat*1000)")" \
    "$(python3 -c "print($td_tps/$pg_tps)")"
done

echo
echo "(b) join of two indexed $JOIN_ROWS-row tables, 1 client closed loop, ${SECONDS_PER_RUN}s"
printf "%-10s %10s %10s %10s\n" server p50_us p99_us qps
read -r pg_p50 pg_p99 pg_qps < <(join $PG_PORT postgres postgres pg)
read -r td_p50 td_p99 td_qps < <(join $TD_PORT materialize materialize td)
printf "%-10s %10s %10s %10s\n" postgres "$pg_p50" "$pg_p99" "$pg_qps"
printf "%-10s %10s %10s %10s\n" tandem "$td_p50" "$td_p99" "$td_qps"
# A p50 of 0 us (pgbench logs whole microseconds) has no meaningful ratio.
echo "tandem/PostgreSQL p50: $(python3 -c "print(f'{$td_p50/$pg_p50:.2f}x' if $pg_p50 else 'n/a (PostgreSQL p50 rounds to 0 us)')")"
