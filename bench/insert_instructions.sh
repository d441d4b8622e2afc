#!/usr/bin/env bash
# CPU of tandemd per one-row INSERT as a count of instructions, which the
# other engineers' builds on this shared machine do not move (wall-clock
# and utime figures here vary 30% between back-to-back runs): tandemd runs
# under valgrind's callgrind with --durability relaxed (the commit path
# without the disk), instrumentation on only while pgbench runs N prepared
# INSERTs per client; prints the whole process's instructions per INSERT
# and keeps the profile for callgrind_annotate.
#
#   bash bench/insert_instructions.sh [CLIENTS] [INSERTS_PER_CLIENT] [PROFILE_OUT]   (defaults 1, 2000, /tmp/insert.callgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
TANDEMD=${TANDEMD:-build/bin/tandemd}
CLIENTS=${1:-1}
INSERTS=${2:-2000}
OUT=${3:-/tmp/insert.callgrind}
command -v valgrind >/dev/null || { echo "needs valgrind"; exit 1; }
WORK=$(mktemp -d /tmp/tandem-insn-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/out" "$TANDEMD" --listen 127.0.0.1:$PORT \
  --data-dir "$WORK/td" --log-level warn --durability relaxed >"$WORK/log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do pg_isready -q -h 127.0.0.1 -p $PORT -U materialize && break; sleep 0.2; done
psql -X -q -h 127.0.0.1 -p $PORT -U materialize materialize -c "CREATE TABLE ins (id bigint, payload text)"
printf '\\set id random(1, 1000000000)\nINSERT INTO ins VALUES (:id, '"'"'payload'"'"');\n' >"$WORK/insert.sql"
bench() { pgbench -n -h 127.0.0.1 -p $PORT -U materialize -f "$WORK/insert.sql" -M prepared -c "$CLIENTS" -j "$CLIENTS" -t "$1" materialize >/dev/null 2>&1; }
bench 200  # warm up: the first INSERTs plan and allocate
callgrind_control -i on $PID >/dev/null 2>&1
bench "$INSERTS"
callgrind_control -i off $PID >/dev/null 2>&1
callgrind_control -d $PID >/dev/null 2>&1
sleep 1
profile=$(ls "$WORK"/out.* 2>/dev/null | head -1)
cp "$profile" "$OUT"
total=$(callgrind_annotate "$OUT" | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
echo "instructions per INSERT, $CLIENTS client(s): $((total / (CLIENTS * INSERTS)))  (profile: $OUT)"
