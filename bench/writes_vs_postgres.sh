#!/usr/bin/env bash
# Write throughput, tandemd vs a throwaway PostgreSQL 15, side by side in one
# run: one-row INSERT commits/s (pgbench, 1 and 4 clients; both servers sync
# their log before acknowledging: PostgreSQL's default fsync/synchronous_commit
# and tandem's default --durability strict), and COPY FROM STDIN of N rows
# (client-side, psql \copy).
#
#   bash bench/writes_vs_postgres.sh [SECONDS_PER_RUN] [COPY_ROWS] [ROUNDS]   (defaults 10, 1000000, 1)
#
# With ROUNDS > 1 the INSERT and COPY runs alternate (PostgreSQL, tandem, PostgreSQL,
# ...) and each line reports the median of the rounds: on a shared machine
# one run of either side can land in a burst of someone else's I/O.
SECONDS_PER_RUN=${1:-10}
COPY_ROWS=${2:-1000000}
ROUNDS=${3:-1}
source "$(dirname "$0")/lib.sh"

for sql in pg_sql td_sql; do
  $sql "CREATE TABLE ins (id bigint, payload text)"
done
cat >"$WORK/insert.sql" <<'SQL'
\set id random(1, 1000000000)
INSERT INTO ins VALUES (:id, 'payload');
SQL
chmod 644 "$WORK/insert.sql"

run() {  # PORT USER DB CLIENTS -> tps
  pgbench -n -h 127.0.0.1 -p "$1" -U "$2" -f "$WORK/insert.sql" -M prepared -c "$4" -j "$4" \
    -T "$SECONDS_PER_RUN" "$3" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
# The disk's own commit latency, before and after the INSERT runs: 200-byte
# overwrites of a zero-filled file, each followed by fdatasync (what both
# servers' logs do per commit). Under other I/O it moves 0.06-5 ms here,
# and every commits/s figure with it.
fsync_probe() {
  python3 - "$WORK/fsync_probe" <<'PY'
import os, statistics, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
os.write(fd, b"\0" * (1 << 20)); os.fsync(fd)
lat = []
for i in range(300):
    os.pwrite(fd, b"x" * 200, (i * 512) % (1 << 20))
    t = time.perf_counter(); os.fdatasync(fd); lat.append((time.perf_counter() - t) * 1e6)
os.close(fd); os.unlink(sys.argv[1])
print(f"fdatasync of a 200-byte overwrite: p50 {statistics.median(lat):.0f} us, p90 {sorted(lat)[269]:.0f} us ({os.getloadavg()[0]:.1f} load)")
PY
}
fsync_probe
printf "%-28s %14s %14s %8s\n" benchmark postgres tandem ratio
median() { python3 -c "import statistics, sys; print(statistics.median(map(float, sys.argv[1:])))" "$@"; }
for clients in 1 4; do
  pgs=() tds=()
  for _ in $(seq 1 "$ROUNDS"); do
    pgs+=("$(run $PG_PORT postgres postgres $clients)")
    tds+=("$(run $TD_PORT materialize materialize $clients)")
  done
  pg=$(median "${pgs[@]}")
  td=$(median "${tds[@]}")
  [ "$ROUNDS" -gt 1 ] && echo "  rounds, $clients client(s): postgres ${pgs[*]}; tandem ${tds[*]}"
  printf "%-28s %14.0f %14.0f %7.2fx\n" "insert commits/s, $clients client(s)" "$pg" "$td" \
    "$(python3 -c "print($td/$pg)")"
done

fsync_probe

python3 -c "
import sys
with open('$WORK/copy.txt', 'w') as f:
    for i in range($COPY_ROWS):
        f.write(f'{i}\t{i % 1000}\trow number {i}\n')
"
chmod 644 "$WORK/copy.txt"
copy_rate() {  # PORT USER DB TABLE -> rows/s
  local start end
  start=$(date +%s.%N)
  psql -X -q -h 127.0.0.1 -p "$1" -U "$2" "$3" -c "\\copy $4 FROM '$WORK/copy.txt'" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print($COPY_ROWS / ($end - $start))"
}
# Each round copies into a fresh table on both servers (alternating, like
# the INSERT runs); the line reports the medians.
pgs=() tds=()
for round in $(seq 1 "$ROUNDS"); do
  for sql in pg_sql td_sql; do $sql "CREATE TABLE cp$round (id bigint, a int, b text)"; done
  pgs+=("$(copy_rate $PG_PORT postgres postgres cp$round)")
  tds+=("$(copy_rate $TD_PORT materialize materialize cp$round)")
  [ "$(td_sql "SELECT count(*) FROM cp$round")" == "$COPY_ROWS" ] || { echo "tandem lost COPY rows"; exit 1; }
done
pg=$(median "${pgs[@]}")
td=$(median "${tds[@]}")
[ "$ROUNDS" -gt 1 ] && echo "  rounds, COPY: postgres ${pgs[*]}; tandem ${tds[*]}"
printf "%-28s %14.0f %14.0f %7.2fx\n" "COPY FROM STDIN rows/s" "$pg" "$td" "$(python3 -c "print($td/$pg)")"
