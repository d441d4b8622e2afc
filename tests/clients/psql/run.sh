#!/usr/bin/env bash
# Runs each *.sql here through psql 15 and compares its output (errors
# included) with the *.out beside it; a .sql listed in TANDEM_ONLY is
# skipped against PostgreSQL (CLIENTS_TARGET=postgres).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tandem-psql-XXXXXX)
trap 'rm -rf "$work"' EXIT
TANDEM_ONLY="subscribe describe"
passed=0 failed=0
for sql in "$here"/*.sql; do
  name=$(basename "$sql" .sql)
  if [ "${CLIENTS_TARGET:-tandem}" = postgres ] && [[ " $TANDEM_ONLY " == *" $name "* ]]; then continue; fi
  sed "s|PSQL_WORK|$work|g" "$sql" >"$work/$name.sql"
  psql -X -a -q -f "$work/$name.sql" >"$work/$name.got" 2>&1
  sed -i "s|$work|PSQL_WORK|g; s|^psql:PSQL_WORK/$name.sql:[0-9]*: ||" "$work/$name.got"
  if diff -u "$here/$name.out" "$work/$name.got" >"$work/$name.diff"; then
    echo "ok $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; cat "$work/$name.diff"; failed=$((failed + 1))
    [ -n "${PSQL_ACCEPT:-}" ] && cp "$work/$name.got" "$here/$name.out"
  fi
done
echo "psql: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
