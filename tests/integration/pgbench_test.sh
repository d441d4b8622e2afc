# pgbench runs SELECT 1 and a parameterized SELECT :x + 1 under the simple,
# extended and prepared protocols with 4 clients and zero failed transactions.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/select1.sql" <<'SQL'
SELECT 1;
SQL
cat >"$WORK/param.sql" <<'SQL'
\set x random(1, 1000000)
SELECT :x + 1;
SQL
for script in select1 param; do
  for mode in simple extended prepared; do
    out=$(pgbench -n -f "$WORK/$script.sql" -M $mode -c 4 -j 2 -T 5 2>&1) || fail "pgbench $script $mode: $out"
    echo "$out" | grep -q "number of failed transactions: 0 (" || fail "pgbench $script $mode had failures: $out"
    processed=$(echo "$out" | sed -n 's/number of transactions actually processed: \([0-9]*\).*/\1/p')
    [ -n "$processed" ] && [ "$processed" -gt 0 ] || fail "pgbench $script $mode processed nothing: $out"
    echo "pgbench $script $mode: $processed transactions"
  done
done
# pgbench's own initialization (drop, create, client-side COPY), twice so the
# drop of existing tables runs too.
for round in 1 2; do
  out=$(pgbench -i -I dtg -s 1 2>&1) || fail "pgbench -i round $round: $out"
done
[ "$(psql -X -At -c 'SELECT count(*) FROM pgbench_accounts')" == "100000" ] || fail "pgbench_accounts not loaded"
[ "$(psql -X -At -c 'SELECT count(*) FROM pgbench_tellers')" == "10" ] || fail "pgbench_tellers not loaded"
echo "pgbench test passed"
