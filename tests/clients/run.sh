#!/usr/bin/env bash
# The driver matrix: each client's own suite (see README.md) against one
# tandemd this script starts on a free loopback port with a scratch data
# directory, or, with --postgres PORT, against a PostgreSQL already
# listening on 127.0.0.1:PORT (to check the suites themselves; the
# SUBSCRIBE cases are then skipped). Prints each client's output, a
# per-client ok/FAIL line, and last "N passed, N failed" counting clients.
#
#   bash tests/clients/run.sh build/bin/tandemd [client...]
#   bash tests/clients/run.sh --postgres 5432 [client...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ALL=(psycopg2 psycopg3 jdbc node libpqxx psql pgbench)
# Debian's python3-psycopg2/python3-psycopg are installed for Debian's
# python3, which another python3 earlier on PATH may not see.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

WORK=$(mktemp -d /tmp/tandem-clients-XXXXXX)
TANDEMD_PID=
cleanup() {
  if [ -n "$TANDEMD_PID" ]; then
    kill -TERM "$TANDEMD_PID" 2>/dev/null || true
    wait "$TANDEMD_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ "${1:-}" = "--postgres" ]; then
  PORT=${2:?usage: $0 --postgres PORT}
  export CLIENTS_TARGET=postgres
  shift 2
else
  TANDEMD=${1:?usage: $0 PATH_TO_TANDEMD [client...]}
  shift
  export CLIENTS_TARGET=tandem
  PORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$TANDEMD" --listen 127.0.0.1:$PORT --http-listen off --data-dir "$WORK/data" >"$WORK/tandemd.log" 2>&1 &
  TANDEMD_PID=$!
fi
export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=materialize PGDATABASE=materialize
for _ in $(seq 1 300); do
  pg_isready -q -h 127.0.0.1 -p "$PORT" && break
  sleep 0.05
done
if ! pg_isready -q -h 127.0.0.1 -p "$PORT"; then
  [ -f "$WORK/tandemd.log" ] && tail -30 "$WORK/tandemd.log"
  echo "server did not start"
  echo "0 passed, 1 failed"
  exit 1
fi

run_client() {
  case $1 in
    psycopg2) (cd "$here/psycopg2" && "$PYTHON" test_psycopg2.py -v) ;;
    psycopg3) (cd "$here/psycopg3" && "$PYTHON" test_psycopg3.py -v) ;;
    jdbc) bash "$here/jdbc/run.sh" ;;
    node) bash "$here/node/install.sh" && (cd "$here/node" && node --test --test-reporter=spec) ;;
    libpqxx) bash "$here/libpqxx/run.sh" ;;
    psql) bash "$here/psql/run.sh" ;;
    pgbench) bash "$here/pgbench/run.sh" ;;
    *) echo "unknown client $1"; return 1 ;;
  esac
}

clients=("$@")
[ ${#clients[@]} -eq 0 ] && clients=("${ALL[@]}")
passed=0 failed=0 summary=()
for c in "${clients[@]}"; do
  echo "== $c"
  if run_client "$c" 2>&1; then
    summary+=("ok   $c"); passed=$((passed + 1))
  else
    summary+=("FAIL $c"); failed=$((failed + 1))
  fi
done
if [ -n "$TANDEMD_PID" ] && ! kill -0 "$TANDEMD_PID" 2>/dev/null; then
  echo "tandemd exited during the run:"; tail -30 "$WORK/tandemd.log"
  failed=$((failed + 1))
fi
echo "== clients ($CLIENTS_TARGET)"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
