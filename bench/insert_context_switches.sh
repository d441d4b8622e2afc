#!/usr/bin/env bash
# tandemd's CPU time and context switches per one-row INSERT (perf stat on
# the tandemd process around a pgbench run into a table no dataflow reads).
# Both counts depend little on other load on the machine, unlike commits/s.
#
#   bash bench/insert_context_switches.sh [CLIENTS] [INSERTS_PER_CLIENT]   (defaults 1, 5000)
#   TANDEMD=path/to/tandemd to measure another binary.
set -euo pipefail
CLIENTS=${1:-1}
PER_CLIENT=${2:-5000}
TANDEMD=${TANDEMD:-build/bin/tandemd}
WORK=$(mktemp -d)
PORT=$((23000 + RANDOM % 1000))
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$WORK/td" --log-level warn >"$WORK/td.log" 2>&1 &
TD_PID=$!
trap 'kill $TD_PID 2>/dev/null || true; wait $TD_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
  psql -X -q -h 127.0.0.1 -p $PORT -U materialize -d materialize -c "SELECT 1" >/dev/null 2>&1 && break
  sleep 0.1
done
psql -X -q -h 127.0.0.1 -p $PORT -U materialize -d materialize -c "CREATE TABLE ins (id bigint, payload text)"
cat >"$WORK/insert.sql" <<'SQL'
\set id random(1, 1000000000)
INSERT INTO ins VALUES (:id, 'payload');
SQL
perf stat ${PERF_ARGS:-} -x, -e task-clock,context-switches -p $TD_PID -o "$WORK/perf.csv" &
PERF_PID=$!
sleep 0.3
pgbench -n -h 127.0.0.1 -p $PORT -U materialize -f "$WORK/insert.sql" -M prepared -c "$CLIENTS" -j "$CLIENTS" \
  -t "$PER_CLIENT" materialize >/dev/null
kill -INT $PERF_PID
wait $PERF_PID || true
awk -F, -v n=$((CLIENTS * PER_CLIENT)) -v c="$CLIENTS" '
  /task-clock/ { cpu = $1 * 1000 / n }
  /context-switches/ { cs = $1 / n }
  END { printf "%d client(s): %.1f us CPU and %.2f context switches per INSERT\n", c, cpu, cs }' "$WORK/perf.csv"
