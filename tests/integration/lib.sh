# Shared helpers for the shell integration tests: start a tandemd on a free
# port with a fresh data directory; stop it and clean up on exit.
set -euo pipefail
TANDEMD=${1:?usage: $0 PATH_TO_TANDEMD}
WORK=$(mktemp -d /tmp/tandem-sh-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$WORK/data" >"$WORK/log" 2>&1 &
TANDEMD_PID=$!
cleanup() {
  kill -TERM $TANDEMD_PID 2>/dev/null || true
  wait $TANDEMD_PID 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=materialize PGDATABASE=materialize
for _ in $(seq 1 300); do
  if pg_isready -q -h 127.0.0.1 -p $PORT; then break; fi
  sleep 0.05
done
pg_isready -q -h 127.0.0.1 -p $PORT || { cat "$WORK/log"; echo "tandemd did not start"; exit 1; }
fail() { echo "FAIL: $*"; cat "$WORK/log" | tail -30; exit 1; }
# psql helpers: run SQL (quietly, stopping at an error); compare what psql
# prints for a command with the expected text.
sql() { psql -X -q -v ON_ERROR_STOP=1 -c "$1"; }
check() {  # check COMMAND EXPECTED
  local got
  got=$(psql -X -v ON_ERROR_STOP=1 -c "$1" 2>&1) || fail "psql $1 failed:\n$got"
  [ "$got" == "$2" ] || fail "psql $1 printed:\n$got\nexpected:\n$2"
}
