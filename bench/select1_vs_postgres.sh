#!/usr/bin/env bash
# SELECT 1 throughput and latency: tandemd against a throwaway PostgreSQL 15,
# the same pgbench command side by side in one run (1 and 4 clients, simple
# and prepared protocol). Prints a table with tandem/PostgreSQL ratios.
#
#   bash bench/select1_vs_postgres.sh [SECONDS_PER_RUN]   (default 10)
#
# Needs build/bin/tandemd (bash scripts/build.sh) and the postgresql package.
# Run as root (PostgreSQL's initdb runs as the postgres user) or as a user
# that can run initdb directly.
SECONDS_PER_RUN=${1:-10}
source "$(dirname "$0")/lib.sh"

echo "SELECT 1;" >"$WORK/select1.sql"
chmod 644 "$WORK/select1.sql"

# run PORT USER MODE CLIENTS -> "tps latency_ms"
run() {
  local out
  out=$(pgbench -n -h 127.0.0.1 -p "$1" -U "$2" -f "$WORK/select1.sql" -M "$3" -c "$4" -j "$4" \
        -T "$SECONDS_PER_RUN" "$5" 2>&1)
  local tps lat
  tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
  lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
  echo "$tps $lat"
}

printf "%-10s %-8s %12s %12s %12s %12s %8s\n" mode clients pg_tps tandem_tps pg_lat_us tandem_lat_us ratio
for mode in simple prepared; do
  for clients in 1 4; do
    read -r pg_tps pg_lat < <(run $PG_PORT postgres $mode $clients postgres)
    read -r td_tps td_lat < <(run $TD_PORT materialize $mode $clients materialize)
    ratio=$(python3 -c "print(f'{$td_tps/$pg_tps:.2f}')")
    printf "%-10s %-8s %12.0f %12.0f %12.1f %12.1f %7sx\n" $mode $clients "$pg_tps" "$td_tps" \
      "$(python3 -c "print($pg_lat*1000)")" "$(python3 -c "print($td_lat*1000)")" "$ratio"
  done
done
