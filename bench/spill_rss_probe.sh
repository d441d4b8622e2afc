#!/bin/bash
# bench/spill_rss_probe.sh ROWS BUDGET: loads ROWS rows of (a bigint, b text
# of 80 bytes) by COPY in pieces of 100,000 into a fresh tandemd with
# --memory-limit BUDGET, then builds an index on a, and prints the server's
# VmHWM/VmRSS after each stage (idle, loaded, hydrated, aggregated: count
# and sum, minmax: min and max, mixed: count, sum, min and max in one
# Reduce, distinct: count(DISTINCT b), all: the five together, sums: sum and
# avg of numeric and sum of float, scanned: every row streamed to /dev/null
# through the index), the peak being reset (/proc/PID/clear_refs) between stages. TENV is passed to
# the server's environment (e.g. TENV=MALLOC_ARENA_MAX=1). Needs psql.
set -u
ROWS=$1; BUDGET=$2
TANDEMD=${TANDEMD:-$(dirname "$0")/../build/bin/tandemd}
PORT=$((23000 + RANDOM % 1000)); DIR=$(mktemp -d /tmp/spill-rss.XXXX)
env ${TENV:-} "$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$DIR" --memory-limit "$BUDGET" > "$DIR.log" 2>&1 &
PID=$!
sleep 2
P="psql -X -q -t -A -h 127.0.0.1 -p $PORT -U materialize -d materialize"
hwm() { echo "$1: $(grep -E 'VmHWM|VmRSS' /proc/$PID/status | tr -s ' ' | tr '\n' ' ')"; }
$P -c "CREATE TABLE t (a bigint, b text)"
hwm idle; echo 5 > /proc/$PID/clear_refs
for ((f=0; f<ROWS; f+=100000)); do
  t=$((f+100000 < ROWS ? f+100000 : ROWS))
  $P -c "\\copy t FROM PROGRAM 'seq $f $((t-1)) | awk \"{printf \\\"%d\\t%080d\\n\\\", \\\$1, \\\$1}\"'"
done
hwm loaded; echo 5 > /proc/$PID/clear_refs
time $P -c "CREATE INDEX t_a ON t (a)" -c "SET transaction_isolation = 'serializable'" -c "SELECT b FROM t WHERE a = 5"
hwm hydrated; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT count(*), sum(a) FROM t"
hwm aggregated; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT min(a), max(a) FROM t"
hwm minmax; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT count(*), sum(a), min(a), max(a) FROM t"
hwm mixed; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT count(DISTINCT b) FROM t"
hwm distinct; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT count(*), sum(a), min(a), max(a), count(DISTINCT b) FROM t"
hwm all; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT sum(a * 0.25), sum(a::float8 * 0.25), avg(a * 0.25) FROM t"
hwm sums; echo 5 > /proc/$PID/clear_refs
$P -c "SELECT a, b FROM t" > /dev/null
hwm scanned
kill $PID; wait $PID 2>/dev/null; rm -rf "$DIR" "$DIR.log"
