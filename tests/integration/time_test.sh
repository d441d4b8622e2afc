# Time, as psql sees it: EXPLAIN TIMESTAMP prints
# Materialize's fields in order, with the query timestamp at the oracle's
# read time under strict serializable and at upper - 1 (answerable at once)
# under serializable; AS OF a past mz_now() reads the data as it was then.
source "$(dirname "$0")/lib.sh"

sql() { psql -X -q -v ON_ERROR_STOP=1 -At -c "$1"; }
field() { echo "$1" | sed -n "s/^ *$2: *\[\{0,1\}\([0-9]*\).*/\1/p" | head -1; }

sql "CREATE TABLE t (a int)"
sql "CREATE INDEX t_a ON t (a)"
sql "INSERT INTO t VALUES (1)"
sql "SELECT a FROM t WHERE a = 1" >/dev/null  # hydrated

strict=$(sql "EXPLAIN TIMESTAMP FOR SELECT a FROM t WHERE a = 1")
labels=$(echo "$strict" | sed -n 's/^ *\([^:]*\):.*/\1/p' | tr '\n' '|')
want="query timestamp|oracle read timestamp|largest not in advance of upper|upper|since|can respond immediately|timeline|session wall time|source materialize.public.t_a (u2, compute)|read frontier|write frontier|"
[ "$labels" == "$want" ] || fail "EXPLAIN TIMESTAMP fields:\n$labels\nexpected:\n$want\n$strict"
echo "$strict" | grep -q "timeline: Some(EpochMilliseconds)" || fail "timeline: $strict"
[ "$(field "$strict" "query timestamp")" == "$(field "$strict" "oracle read timestamp")" ] ||
  fail "strict serializable reads at the oracle's time:\n$strict"
echo "$strict" | grep -Eq "query timestamp: [0-9]+ \([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\.[0-9]{3}\)" ||
  fail "timestamp format: $strict"

serializable=$(psql -X -q -v ON_ERROR_STOP=1 -At -c "SET transaction_isolation = serializable" \
                 -c "EXPLAIN TIMESTAMP FOR SELECT a FROM t WHERE a = 1")
echo "$serializable" | grep -q "oracle read timestamp" && fail "serializable consulted the oracle:\n$serializable"
[ "$(field "$serializable" "query timestamp")" == "$(field "$serializable" "largest not in advance of upper")" ] ||
  fail "serializable reads at upper - 1:\n$serializable"
echo "$serializable" | grep -q "can respond immediately: true" || fail "serializable must not wait:\n$serializable"
upper=$(field "$serializable" "upper")
query=$(field "$serializable" "query timestamp")
[ "$upper" -eq $((query + 1)) ] || fail "upper $upper, query timestamp $query"

# A table without an index is a storage input.
sql "CREATE TABLE s (b int)"
scan=$(sql "EXPLAIN TIMESTAMP FOR SELECT count(*) FROM s")
echo "$scan" | grep -q "source materialize.public.s (u3, storage):" || fail "table input:\n$scan"

# AS OF: a time seen by mz_now() before a later write still reads as then,
# through the index and through a dataflow.
then=$(sql "SELECT mz_now()")
sql "INSERT INTO t VALUES (2)"
[ "$(sql "SELECT count(*) FROM t")" == "2" ] || fail "the second row is not visible"
[ "$(sql "SELECT count(*) FROM t AS OF $then")" == "1" ] || fail "AS OF $then does not read the past"
[ "$(sql "SELECT a FROM t WHERE a = 2 AS OF $then")" == "" ] || fail "AS OF $then lookup sees a later row"
[ "$(sql "SELECT a FROM t WHERE a = 2 AS OF AT LEAST $then")" == "" ] || fail "AS OF AT LEAST $then reads later"
now=$(sql "SELECT mz_now()")
[ "$(sql "SELECT a FROM t WHERE a = 2 AS OF AT LEAST $now")" == "2" ] || fail "AS OF AT LEAST $now misses the row"
echo "time_test: ok"
