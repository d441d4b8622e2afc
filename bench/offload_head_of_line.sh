#!/bin/bash
# Head-of-line check for offload: tandemd with ONE I/O
# thread, so the session walking a skewed key (2M rows) shares its thread
# with two pgbench sessions doing normal lookups at 25/s. Arms: offload off
# then on, side by side on one server; prints p50/p95/p99/max of the normal
# lookups (each a SET + a prepared SELECT). Usage:
#   bench/offload_head_of_line.sh [path/to/tandemd]   (PORT=... to choose)
set -e
BIN=${1:-build/bin/tandemd}
PORT=${PORT:-23867}
D=$(mktemp -d)
$BIN --listen 127.0.0.1:$PORT --data-dir $D/data --io-threads 1 > $D/log 2>&1 &
PID=$!
trap "kill $PID; rm -rf $D" EXIT
sleep 2
cat > $D/normal.sql <<'SQL'
\set k random(1, 10000)
SET transaction_isolation = 'serializable';
SELECT v FROM sk WHERE k = :k;
SQL
P="psql -h 127.0.0.1 -p $PORT -U materialize materialize -q"
$P -c "CREATE TABLE sk (k int, v int)"
$P -c "INSERT INTO sk SELECT 0, x FROM generate_series(1, 2000000) AS x"
$P -c "INSERT INTO sk SELECT x, -x FROM generate_series(1, 10000) AS x"
$P -c "CREATE INDEX sk_k ON sk (k)"
$P -c "SELECT v FROM sk WHERE k = 1" > /dev/null
for arm in off on; do
  psql -h 127.0.0.1 -p $PORT -U mz_system materialize -q -c "ALTER SYSTEM SET enable_compute_index_peek_offload = $arm"
  # The skewed walk, back to back for the whole run (each ~0.3-0.8 s).
  ( end=$((SECONDS+12)); while [ $SECONDS -lt $end ]; do
      $P -c "SET transaction_isolation = 'serializable'" -c "SELECT v FROM sk WHERE k = 0 AND v < 0" > /dev/null; done ) &
  SK=$!
  sleep 1
  (cd $D && pgbench -n -h 127.0.0.1 -p $PORT -U materialize -M prepared -f $D/normal.sql -R 25 -T 10 -c 2 -j 1 -l --log-prefix=arm_$arm materialize > $D/pgbench_$arm.out 2>&1)
  wait $SK
  cat $D/arm_$arm.* | awk '{print $3}' | sort -n > $D/lat_$arm
  python3 - "$arm" $D/lat_$arm <<'PY'
import sys, math
lat = [int(l) for l in open(sys.argv[2])]
n = len(lat)
pct = lambda p: lat[max(0, math.ceil(p / 100 * n) - 1)]
print(f"offload {sys.argv[1]}: n {n}  p50 {pct(50)} us  p95 {pct(95)} us  p99 {pct(99)} us  max {lat[-1]} us")
PY
done
