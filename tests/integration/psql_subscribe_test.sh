# psql's `COPY (SUBSCRIBE t) TO STDOUT` shows the snapshot,
# then each insert and delete as it commits, while psql keeps running; with
# ENVELOPE UPSERT (KEY (a)) the same writes arrive as upsert/delete states.
# psql's stdout is a file here, so stdbuf makes it write each line at once
# (on a terminal it is line-buffered anyway).
source "$(dirname "$0")/lib.sh"

psql -X -q -v ON_ERROR_STOP=1 -c "CREATE TABLE t (a int, b text)" -c "INSERT INTO t VALUES (1, 'one')" ||
  fail "set-up failed"

# Waits (at most 10 s) until FILE has LINES lines.
await_lines() {
  local file=$1 lines=$2
  for _ in $(seq 1 200); do
    [ "$(wc -l <"$file")" -ge "$lines" ] && return 0
    sleep 0.05
  done
  fail "$file has $(wc -l <"$file") lines, expected $lines: $(cat "$file")"
}

stdbuf -o0 psql -X -q -c "COPY (SUBSCRIBE t) TO STDOUT" >"$WORK/plain.out" 2>&1 &
PLAIN=$!
stdbuf -o0 psql -X -q -c "COPY (SUBSCRIBE t ENVELOPE UPSERT (KEY (a))) TO STDOUT" >"$WORK/upsert.out" 2>&1 &
UPSERT=$!
await_lines "$WORK/plain.out" 1
await_lines "$WORK/upsert.out" 1
psql -X -q -c "INSERT INTO t VALUES (2, 'two')" || fail "insert failed"
await_lines "$WORK/plain.out" 2
await_lines "$WORK/upsert.out" 2
psql -X -q -c "DELETE FROM t WHERE a = 1" || fail "delete failed"
await_lines "$WORK/plain.out" 3
await_lines "$WORK/upsert.out" 3
kill -0 $PLAIN 2>/dev/null || fail "psql's subscribe ended: $(cat "$WORK/plain.out")"
kill $PLAIN $UPSERT
wait $PLAIN $UPSERT 2>/dev/null || true

# mz_timestamp (epoch ms), then mz_diff or mz_state, then the columns.
plain=$(cut -f2- "$WORK/plain.out")
[ "$plain" == $'1\t1\tone\n1\t2\ttwo\n-1\t1\tone' ] || fail "plain subscribe:\n$(cat "$WORK/plain.out")"
upsert=$(cut -f2- "$WORK/upsert.out")
[ "$upsert" == $'upsert\t1\tone\nupsert\t2\ttwo\ndelete\t1\t\\N' ] || fail "upsert subscribe:\n$(cat "$WORK/upsert.out")"
grep -qvE '^[0-9]{13}	' "$WORK/plain.out" && fail "mz_timestamp is not epoch milliseconds: $(cat "$WORK/plain.out")"
# Timestamps never decrease.
sort -n -c -k1,1 "$WORK/plain.out" || fail "timestamps decrease: $(cat "$WORK/plain.out")"
echo "psql subscribe test passed"
