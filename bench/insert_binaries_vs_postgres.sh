#!/usr/bin/env bash
# One-row INSERT commits/s of PostgreSQL 15 and of one or more tandemd
# binaries side by side (pgbench -M prepared, CLIENTS clients), in ROUNDS
# rounds that each run every server once in turn; prints every round and
# the medians. For comparing a change with the binary before it against
# the same PostgreSQL in one run: on this machine the disk's commit latency
# moves 1.5x within minutes, so only side-by-side rounds compare.
#
#   bash bench/insert_binaries_vs_postgres.sh ROUNDS SECONDS CLIENTS TANDEMD [TANDEMD...]
ROUNDS=$1 SECONDS_PER_RUN=$2 CLIENTS=$3
shift 3
BINS=("$@")
export TANDEMD=${BINS[0]}
source "$(dirname "$0")/lib.sh"
PORTS=($TD_PORT) EXTRA=()
for ((i = 1; i < ${#BINS[@]}; i++)); do
  port=$(free_port)
  "${BINS[$i]}" --listen 127.0.0.1:$port --data-dir "$WORK/td$i" --log-level warn >"$WORK/td$i.log" 2>&1 &
  EXTRA+=($!) PORTS+=($port)
done
stop_extra() { for pid in "${EXTRA[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; }
trap 'stop_extra; cleanup' EXIT
for port in "${PORTS[@]}"; do
  for _ in $(seq 1 200); do pg_isready -q -h 127.0.0.1 -p "$port" -U materialize && break; sleep 0.05; done
  psql -X -q -h 127.0.0.1 -p "$port" -U materialize materialize -c "CREATE TABLE ins (id bigint, payload text)"
done
pg_sql "CREATE TABLE ins (id bigint, payload text)"
cat >"$WORK/insert.sql" <<'SQL'
\set id random(1, 1000000000)
INSERT INTO ins VALUES (:id, 'payload');
SQL
chmod 644 "$WORK/insert.sql"
run() {  # PORT USER -> tps
  pgbench -n -h 127.0.0.1 -p "$1" -U "$2" -f "$WORK/insert.sql" -M prepared -c "$CLIENTS" -j "$CLIENTS" \
    -T "$SECONDS_PER_RUN" "$2" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
declare -A rates
for round in $(seq 1 "$ROUNDS"); do
  line="round $round: postgres $(run $PG_PORT postgres)"
  rates[pg]+=" ${line##* }"
  for ((i = 0; i < ${#PORTS[@]}; i++)); do
    tps=$(run "${PORTS[$i]}" materialize)
    rates[$i]+=" $tps"
    line+=" | $(basename "${BINS[$i]}") $tps"
  done
  echo "$line"
done
median() { python3 -c "import statistics, sys; print('%.0f' % statistics.median(map(float, sys.argv[1:])))" "$@"; }
pg=$(median ${rates[pg]})
echo "median postgres $pg commits/s ($CLIENTS client(s))"
for ((i = 0; i < ${#PORTS[@]}; i++)); do
  td=$(median ${rates[$i]})
  echo "median $(basename "${BINS[$i]}") $td commits/s, $(python3 -c "print('%.2f' % ($td / $pg))")x postgres"
done
