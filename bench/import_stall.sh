#!/bin/bash
# How long a cluster's first import of a large table stalls other
# sessions' reads. Loads ROWS rows (default 2M) into `big`, then, on a new
# cluster, starts `SELECT count(*) FROM big` (the import: the table's
# replay from storage) while pgbench runs a peek dataflow on the default
# cluster (`SELECT count(*) FROM small`, which goes through the
# coordinator) back to back. Prints the import's duration and the
# latencies of the default cluster's reads that overlapped it. Usage:
#   bench/import_stall.sh [path/to/tandemd] [rows]   (PORT=... to choose)
set -e
BIN=${1:-build/bin/tandemd}
ROWS=${2:-2000000}
PORT=${PORT:-23877}
D=$(mktemp -d)
$BIN --listen 127.0.0.1:$PORT --data-dir $D/data > $D/log 2>&1 &
PID=$!
trap "kill $PID; wait $PID 2>/dev/null; rm -rf $D" EXIT
P="psql -h 127.0.0.1 -p $PORT -U materialize materialize -q -X"
for _ in $(seq 50); do $P -c "SELECT 1" > /dev/null 2>&1 && break; sleep 0.2; done
$P -c "CREATE TABLE big (a int, b int)"
for start in $(seq 1 500000 "$ROWS"); do
  end=$((start + 499999)); [ "$end" -gt "$ROWS" ] && end=$ROWS
  $P -c "INSERT INTO big SELECT x, x % 7 FROM generate_series($start, $end) AS x"
done
$P -c "CREATE TABLE small (a int)"
$P -c "INSERT INTO small VALUES (1), (2), (3)"
$P -c "SELECT count(*) FROM small" > /dev/null
$P -c "CREATE CLUSTER c2 (SIZE = '1')"
sleep 2  # the table read frontier passes the load
echo "SELECT count(*) FROM small;" > $D/read.sql
(cd $D && pgbench -n -h 127.0.0.1 -p $PORT -U materialize -f $D/read.sql -T 14 -c 1 -j 1 -l --log-prefix=reads materialize > $D/pgbench.out 2>&1) &
BENCH=$!
sleep 2
t0=$(date +%s%N)
$P -c "SET cluster = c2" -c "SELECT count(*) FROM big" > /dev/null
t1=$(date +%s%N)
wait $BENCH
# pgbench -l: client, tx, latency us, script, epoch s, epoch us (at the end)
python3 - "$t0" "$t1" $D/reads.* <<'PY'
import sys
t0, t1 = int(sys.argv[1]) // 1000, int(sys.argv[2]) // 1000
lat = []
for path in sys.argv[3:]:
    for line in open(path):
        f = line.split()
        end = int(f[4]) * 1000000 + int(f[5])
        start = end - int(f[2])
        if end >= t0 and start <= t1:
            lat.append(int(f[2]))
lat.sort()
print(f"import (SELECT count(*) FROM big on a new cluster): {(t1 - t0) / 1000:.0f} ms")
if lat:
    print(f"default-cluster reads overlapping it: n {len(lat)}  p50 {lat[len(lat) // 2] / 1000:.1f} ms  "
          f"max {lat[-1] / 1000:.1f} ms")
PY
grep -E "replayed for cluster" $D/log | tail -2 || true
