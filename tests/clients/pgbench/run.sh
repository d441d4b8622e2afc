#!/usr/bin/env bash
# pgbench as its users run it: `pgbench -i` with its default steps
# (dtgvp: drop, create, client-side COPY, VACUUM, primary keys) and with
# -I dtgp, then the built-in TPC-B-like script under each query protocol,
# the select-only script, two clients retrying serialization failures,
# and a custom script with \set variables. Each
# check prints ok/FAIL; the server comes from the PG* variables.
set -uo pipefail
passed=0 failed=0
check() {  # check NAME COMMAND...
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then
    echo "ok $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; echo "$out" | tail -15; failed=$((failed + 1))
  fi
}
q() { psql -X -At -v ON_ERROR_STOP=1 -c "$1"; }
expect() {  # expect SQL VALUE
  local got
  got=$(q "$1") || return 1
  [ "$got" == "$2" ] || { echo "$1 gave '$got', expected '$2'"; return 1; }
}
run_bench() {  # run_bench ARGS...: zero failed transactions, some processed
  local out processed
  out=$(pgbench -n "$@" 2>&1) || { echo "$out"; return 1; }
  echo "$out" | grep -q "number of failed transactions: 0 (" || { echo "$out"; return 1; }
  processed=$(echo "$out" | sed -n 's/number of transactions actually processed: \([0-9]*\).*/\1/p')
  [ -n "$processed" ] && [ "$processed" -gt 0 ] || { echo "$out"; return 1; }
}
keys() {  # the primary keys pgbench -i's step p made, as PostgreSQL lists them
  expect "SELECT c.relname || ':' || k.conname || ':' || k.contype::text
            FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
           WHERE k.conname LIKE 'pgbench%' ORDER BY k.conname" \
    "pgbench_accounts:pgbench_accounts_pkey:p
pgbench_branches:pgbench_branches_pkey:p
pgbench_tellers:pgbench_tellers_pkey:p"
}

check "pgbench -i (default steps)" pgbench -i -q -s 1
check "loaded accounts" expect "SELECT count(*), sum(abalance) FROM pgbench_accounts" "100000|0"
check "primary keys after default steps" keys
check "a primary key is enforced" bash -c \
  "psql -X -v ON_ERROR_STOP=1 -c 'INSERT INTO pgbench_branches VALUES (1, 0)' 2>&1 | grep -q 'duplicate key value violates unique constraint \"pgbench_branches_pkey\"'"
check "pgbench -i -I dtgp" pgbench -i -I dtgp -s 1
check "primary keys after -I dtgp" keys
check "tellers after -I dtgp" expect "SELECT count(*) FROM pgbench_tellers" "10"
for mode in simple extended prepared; do
  check "tpcb-like -M $mode" run_bench -M $mode -t 20
done
# Two clients: tandem detects write conflicts per table (first committer
# wins, 40001), where PostgreSQL locks rows, so pgbench retries them.
check "tpcb-like, 2 clients retrying serialization failures" run_bench -M prepared -c 2 -j 2 -t 10 --max-tries=1000
check "history has every transaction" expect "SELECT count(*) FROM pgbench_history" "80"
check "balances agree" expect "SELECT (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(delta) FROM pgbench_history)" "t"
check "select-only -M prepared" run_bench -b select-only -M prepared -c 2 -t 50
script=$(mktemp /tmp/tandem-pgbench-XXXXXX.sql)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'SQL'
\set aid random(1, 100000 * :scale)
\set delta random(-100, 100)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
END;
SQL
check "custom script -M extended" run_bench -f "$script" -M extended -t 20
echo "pgbench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
