#!/bin/bash
# bench/hydration_memory_samples.sh [ROWS] [BUDGET]: the load and hydration
# stages of spill_full_size.sh (a table t (a bigint, b text of 80 bytes)
# loaded by 100,000-row COPYs into a tandemd with --memory-limit BUDGET,
# then CREATE INDEX on a and one lookup), with tandemd's memory report
# (SIGUSR1: malloc, the budget's resident and building bytes, RocksDB's
# memtables and block caches per family) and VmRSS/VmHWM sampled every
# 2 s through the hydration. Prints VmHWM after the load and after the
# hydration, then the samples taken around the hydration's peak.
# Defaults: 11,600,000 rows (about 1 GB as COPY text), 256MB.
set -eu
ROWS=${1:-11600000}; BUDGET=${2:-256MB}; PIECE=100000
TANDEMD=${TANDEMD:-$(dirname "$0")/../build/bin/tandemd}
DIR=$(mktemp -d /tmp/hydration-samples.XXXX)
PORT=$((23000 + RANDOM % 1000))
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$DIR/data" --memory-limit "$BUDGET" > "$DIR/log" 2>&1 &
PID=$!
SAMPLER=""
trap 'kill $PID $SAMPLER 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DIR"' EXIT
q() { psql -X -q -t -A -h 127.0.0.1 -p $PORT -U materialize -d materialize "$@"; }
for _ in $(seq 100); do q -c "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
kb() { awk -v f="$1:" '$1 == f {print int($2 / 1024)}' /proc/$PID/status; }
q -c "CREATE TABLE t (a bigint, b text)"
for ((f = 0; f < ROWS; f += PIECE)); do
  to=$((f + PIECE < ROWS ? f + PIECE : ROWS))
  q -c "\\copy t FROM PROGRAM 'seq $f $((to - 1)) | awk \"{printf \\\"%d\\t%080d\\n\\\", \\\$1, \\\$1}\"'"
done
echo "loaded $ROWS rows: VmHWM $(kb VmHWM) MB"
echo 5 > /proc/$PID/clear_refs
( while kill -0 $PID 2>/dev/null; do
    kill -USR1 $PID
    echo "$(date +%T) $(kb VmHWM) $(kb VmRSS)" >> "$DIR/rss"
    sleep 2
  done ) &
SAMPLER=$!
t0=$(date +%s)
q -c "CREATE INDEX t_a ON t (a)" -c "SET transaction_isolation = 'serializable'" -c "SELECT a FROM t WHERE a = 5" >/dev/null
echo "hydrated in $(( $(date +%s) - t0 )) s: VmHWM $(kb VmHWM) MB (budget $BUDGET)"
kill $SAMPLER 2>/dev/null || true
# The samples (time, VmHWM, VmRSS in MB) where the peak rose by 10 MB or
# more, each with the memory report logged next to it.
awk 'BEGIN {p = 0} $2 > p + 10 {print} {p = $2}' "$DIR/rss" | while read -r at hwm rss; do
  echo "$at VmHWM $hwm MB, VmRSS $rss MB"
  grep "memory:" "$DIR/log" | grep "T$at" | head -1 | sed -E 's/.*memory: //; s/catalog:.*spill:/spill:/' || true
done
