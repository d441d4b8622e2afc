# psql talks to tandemd as to PostgreSQL: constant queries, SET/SHOW, errors
# with SQLSTATEs, a transaction block, \gset variables, and ON_ERROR_STOP.
source "$(dirname "$0")/lib.sh"

out=$(psql -X -q -v ON_ERROR_STOP=1 -At <<'SQL'
SELECT 1 + 1;
SELECT 'a' || 'b', 2.5::numeric * 2, NULL IS NULL;
SET application_name = 'psql-test';
SHOW application_name;
BEGIN;
SELECT CASE WHEN 1 < 2 THEN 'yes' ELSE 'no' END;
COMMIT;
VALUES (1, 'x'), (2, 'y');
SELECT 7 AS seven \gset
SELECT :seven * 6;
SQL
) || fail "psql session failed: $out"
expected=$'2\nab|5.0|t\npsql-test\nyes\n1|x\n2|y\n42'
[ "$out" == "$expected" ] || fail "unexpected psql output:\n$out\nexpected:\n$expected"

# An error stops a script under ON_ERROR_STOP, with psql's exit status 3.
set +e
err=$(psql -X -v ON_ERROR_STOP=1 -At -c 'SELECT 1/0' 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "division by zero did not fail"
echo "$err" | grep -q "division by zero" || fail "unexpected error text: $err"

# VERBOSITY verbose shows the SQLSTATE.
err=$(psql -X -At -v VERBOSITY=verbose -c 'SELECT 2147483647 + 1' 2>&1 || true)
echo "$err" | grep -q "22003" || fail "expected SQLSTATE 22003: $err"
err=$(psql -X -At -v VERBOSITY=verbose -c 'SELEC 1' 2>&1 || true)
echo "$err" | grep -q "42601" || fail "expected SQLSTATE 42601: $err"
echo "$err" | grep -q "LINE 1: SELEC 1" || fail "expected a position marker: $err"
# COPY FROM STDIN (text and csv) and COPY TO STDOUT; a bad line names its
# line and writes nothing.
printf '1\tone\n2\t\\N\n' >"$WORK/rows.txt"
printf 'a,b\n3,"x,y"\n4,\n' >"$WORK/rows.csv"
printf '5\tfive\nx\tbad\n' >"$WORK/bad.txt"
out=$(psql -X -q -v ON_ERROR_STOP=1 -At <<SQL
CREATE TABLE c (a int PRIMARY KEY, b text);
\copy c FROM '$WORK/rows.txt'
\copy c FROM '$WORK/rows.csv' WITH (FORMAT csv, HEADER)
COPY c TO STDOUT;
COPY (SELECT a, b FROM c WHERE a > 2 ORDER BY a) TO STDOUT WITH (FORMAT csv);
COPY (SELECT a, b AS "b,c" FROM c WHERE a = 3) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT a FROM c WHERE a > 9) TO STDOUT WITH (FORMAT csv, HEADER true);
SQL
) || fail "COPY session failed: $out"
expected=$'1\tone\n2\t\\N\n3\tx,y\n4\t\\N\n3,"x,y"\n4,\na,"b,c"\n3,"x,y"\na'
[ "$out" == "$expected" ] || fail "unexpected COPY output:\n$out\nexpected:\n$expected"
err=$(psql -X -At -c "\\copy c FROM '$WORK/bad.txt'" 2>&1 || true)
echo "$err" | grep -q 'invalid input syntax for type integer: "x"' || fail "expected a COPY error: $err"
echo "$err" | grep -q 'line 2' || fail "the COPY error should name line 2: $err"
count=$(psql -X -At -c "SELECT count(*) FROM c")
[ "$count" == "4" ] || fail "a failed COPY wrote rows: count=$count"
# A large COPY arrives in many CopyData messages and is parsed as it comes:
# a bad line near the end still names its line, writes nothing, and the
# session goes on; the good file then lands whole.
python3 -c "
for i in range(10, 120010): print(f'{i}\trow {i}' if i != 119000 else 'bad\tline')
" >"$WORK/big_bad.txt"
sed 's/^bad\tline$/119000\trow 119000/' "$WORK/big_bad.txt" >"$WORK/big.txt"
out=$(psql -X -At <<SQL 2>&1
\copy c FROM '$WORK/big_bad.txt'
SELECT count(*) FROM c;
SQL
) || true
echo "$out" | grep -q 'line 118991' || fail "the COPY error should name line 118991: $out"
echo "$out" | grep -qx '4' || fail "a failed large COPY wrote rows, or the session ended: $out"
psql -X -q -v ON_ERROR_STOP=1 -c "\copy c FROM '$WORK/big.txt'" || fail "the large COPY failed"
out=$(psql -X -At -c "SELECT count(*), sum(a) FROM c")
[ "$out" == "120004|$(python3 -c 'print(10 + sum(range(10, 120010)))')" ] || fail "large COPY: $out"
echo "psql test passed"
