#!/bin/bash
# bench/spill_full_size.sh [ROWS] [BUDGET]: the memory bound at full size. A
# table of ROWS rows (a bigint, b text of 80 bytes: 92 bytes a row as COPY
# text; default 11,600,000 rows, about 1 GB) is loaded by COPY in pieces of
# 1,000,000 rows into a tandemd with --memory-limit BUDGET (default 256MB)
# and, side by side in the same run, into an unbudgeted one (the default
# limit, half of physical memory). Each server then: hydrates an index on a
# (plus a lookup), answers point lookups, a scan and aggregates, and is
# restarted on its data directory (boot re-reads the table and re-hydrates
# the index, then a lookup). VmHWM is reported per stage (the peak is reset
# through /proc/PID/clear_refs between stages; the boot stage is the new
# process's whole life). The budgeted run's answers must equal the
# unbudgeted run's and the closed forms (count, sum, min, max); any
# difference fails the script. The servers run one after the other, so
# each has the machine to itself (as much as the machine allows).
set -eu
# BUDGETED_ONLY=1 runs the budgeted server alone (its answers are still
# checked against the closed forms).
ROWS=${1:-11600000}; BUDGET=${2:-256MB}; BUDGETED_ONLY=${BUDGETED_ONLY:-0}
PIECE=${PIECE:-1000000}  # rows per COPY
TANDEMD=${TANDEMD:-$(dirname "$0")/../build/bin/tandemd}
OUT=$(mktemp -d /tmp/spill-full.XXXX)
LOOKUPS=(0 1 4242 $((ROWS / 3)) $((ROWS / 2)) $((ROWS - 1)) $ROWS)

PID=""; PORT=0; DIR=""
start() {  # start DATA_DIR [ARGS...]
  DIR=$1; shift
  PORT=$((23000 + RANDOM % 1000))
  "$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$DIR" "$@" >> "$DIR.log" 2>&1 &
  PID=$!
  for _ in $(seq 600); do
    psql -X -q -h 127.0.0.1 -p $PORT -U materialize -d materialize -c "SELECT 1" >/dev/null 2>&1 && return
    kill -0 $PID 2>/dev/null || { echo "tandemd exited: $(tail -5 "$DIR.log")"; exit 1; }
    sleep 0.5
  done
  echo "tandemd did not start"; exit 1
}
stop() { kill $PID; wait $PID 2>/dev/null || true; }
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; true' EXIT
q() { psql -X -q -t -A -h 127.0.0.1 -p $PORT -U materialize -d materialize "$@"; }
mb() { awk -v f="$1:" '$1 == f {print int($2 / 1024)}' /proc/$PID/status; }
stage() {  # stage RUN NAME START_SECONDS: records VmHWM and time, resets the peak
  echo "$1 $2 $(mb VmHWM) $(mb VmRSS) $(( $(date +%s) - $3 ))" >> "$OUT/stages"
  echo 5 > /proc/$PID/clear_refs
}
# The answers each run must agree on, one per line.
answers() {
  for a in "${LOOKUPS[@]}"; do q -c "SET transaction_isolation = 'serializable'" -c "SELECT a, b FROM t WHERE a = $a"; done
}

run() {  # run NAME [TANDEMD ARGS...]
  local name=$1; shift
  local data=$OUT/$name
  start "$data" "$@"
  q -c "CREATE TABLE t (a bigint, b text)"
  local t0; t0=$(date +%s); stage "$name" idle "$t0"
  t0=$(date +%s)
  for ((f = 0; f < ROWS; f += PIECE)); do
    local to=$((f + PIECE < ROWS ? f + PIECE : ROWS))
    q -c "\\copy t FROM PROGRAM 'seq $f $((to - 1)) | awk \"{printf \\\"%d\\t%080d\\n\\\", \\\$1, \\\$1}\"'"
  done
  stage "$name" loaded "$t0"
  t0=$(date +%s)
  q -c "CREATE INDEX t_a ON t (a)" -c "SET transaction_isolation = 'serializable'" -c "SELECT a FROM t WHERE a = 5" >/dev/null
  stage "$name" hydrated "$t0"
  t0=$(date +%s); answers > "$OUT/$name.lookups"; stage "$name" lookups "$t0"
  t0=$(date +%s)
  q -c "SET transaction_isolation = 'serializable'" -c "SELECT count(*) FROM t WHERE b LIKE '%7'" > "$OUT/$name.scan"
  stage "$name" scan "$t0"
  t0=$(date +%s)
  q -c "SET transaction_isolation = 'serializable'" -c "SELECT count(*), sum(a), min(a), max(a), count(DISTINCT b) FROM t" \
    > "$OUT/$name.aggregates"
  stage "$name" aggregates "$t0"
  stop
  t0=$(date +%s)
  start "$data" "$@"
  answers > "$OUT/$name.booted"
  stage "$name" booted "$t0"
  stop; PID=""
  du -sm "$data" | cut -f1 > "$OUT/$name.disk_mb"
  rm -rf "$data"
}

echo "spill_full_size: $ROWS rows ($((ROWS * 92 >> 20)) MB as COPY text), budget $BUDGET; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run budgeted --memory-limit "$BUDGET"
[ "$BUDGETED_ONLY" = 1 ] || run unbudgeted

fail=0
for f in lookups scan aggregates booted; do
  [ "$BUDGETED_ONLY" = 1 ] && break
  cmp -s "$OUT/budgeted.$f" "$OUT/unbudgeted.$f" || { echo "MISMATCH in $f:"; diff "$OUT/budgeted.$f" "$OUT/unbudgeted.$f" | head; fail=1; }
done
cmp -s "$OUT/budgeted.lookups" "$OUT/budgeted.booted" || { echo "MISMATCH: lookups after the restart"; fail=1; }
expected="$ROWS|$((ROWS * (ROWS - 1) / 2))|0|$((ROWS - 1))|$ROWS"
[ "$(cat "$OUT/budgeted.aggregates")" = "$expected" ] || { echo "WRONG aggregates: $(cat "$OUT/budgeted.aggregates") want $expected"; fail=1; }
[ "$(wc -l < "$OUT/budgeted.lookups")" = $((${#LOOKUPS[@]} - 1)) ] || { echo "WRONG lookups"; fail=1; }

echo "VmHWM per stage, MB (seconds), side by side:"
printf "| %-10s | %18s | %18s |\n" stage "budget $BUDGET" unbudgeted
printf "|%s|%s|%s|\n" "------------" "-------------------:" "-------------------:"
for s in idle loaded hydrated lookups scan aggregates booted; do
  b=$(awk -v s=$s '$1 == "budgeted" && $2 == s {printf "%d (%d s)", $3, $5}' "$OUT/stages")
  u=$(awk -v s=$s '$1 == "unbudgeted" && $2 == s {printf "%d (%d s)", $3, $5}' "$OUT/stages")
  printf "| %-10s | %18s | %18s |\n" "$s" "$b" "$u"
done
echo "disk: budgeted $(cat "$OUT/budgeted.disk_mb") MB, unbudgeted $(cat "$OUT/unbudgeted.disk_mb" 2>/dev/null || echo -) MB; answers agree: $([ $fail = 0 ] && echo yes || echo NO)"
rm -rf "$OUT"
exit $fail
