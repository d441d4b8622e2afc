#!/bin/bash
# bench/big_copy_rss.sh ROWS BUDGET: ONE COPY of ROWS rows of (a bigint, b
# text of 80 bytes) into a table with an index on a, in a fresh tandemd
# with --memory-limit BUDGET; prints the server's VmHWM after the COPY
# (acknowledged) and after the index answers for the last row (the peak
# is not reset between them: the second covers both), and the times.
# TANDEMD picks the binary (before/after comparisons). Needs psql.
set -u
ROWS=$1; BUDGET=$2
TANDEMD=${TANDEMD:-$(dirname "$0")/../build/bin/tandemd}
PORT=$((23000 + RANDOM % 1000)); DIR=$(mktemp -d /tmp/big-copy.XXXX)
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$DIR" --memory-limit "$BUDGET" > "$DIR.log" 2>&1 &
PID=$!
P="psql -X -q -t -A -h 127.0.0.1 -p $PORT -U materialize -d materialize"
for _ in $(seq 50); do $P -c "SELECT 1" > /dev/null 2>&1 && break; sleep 0.2; done
hwm() { echo "$1: $(grep -E 'VmHWM|VmRSS' /proc/$PID/status | tr -s ' ' | tr '\n' ' ')"; }
$P -c "CREATE TABLE t (a bigint, b text)" -c "CREATE INDEX t_a ON t (a)"
hwm idle; echo 5 > /proc/$PID/clear_refs
start=$(date +%s.%N)
$P -c "\\copy t FROM PROGRAM 'seq 0 $((ROWS-1)) | awk \"{printf \\\"%d\\t%080d\\n\\\", \\\$1, \\\$1}\"'"
copied=$(date +%s.%N)
hwm copied
$P -c "SET transaction_isolation = 'serializable'" -c "SELECT count(*) FROM t WHERE a = $((ROWS-1))" > /dev/null
$P -c "SELECT count(*) FROM t WHERE a = $((ROWS-1))"
indexed=$(date +%s.%N)
hwm indexed
echo "copy $(echo "$copied - $start" | bc) s, indexed $(echo "$indexed - $start" | bc) s"
$P -c "SELECT count(*), sum(a) FROM t"
kill $PID; wait $PID 2>/dev/null; rm -rf "$DIR" "$DIR.log"
