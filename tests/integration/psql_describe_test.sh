# psql 15's describe commands (issue 6, item 2) against tandemd: \dt, \di,
# \dv, \dm, \dn and \d VIEW send their pg_catalog queries (see psql -E)
# and print what PostgreSQL prints for the same objects, with tandem's
# owners (materialize) and defaults. (\l, and \d on a table or a
# materialized view, also read array columns, which tandem lacks.)
source "$(dirname "$0")/lib.sh"

sql() { psql -X -q -v ON_ERROR_STOP=1 -c "$1"; }
check() {  # check COMMAND EXPECTED
  local got
  got=$(psql -X -v ON_ERROR_STOP=1 -c "$1" 2>&1) || fail "psql $1 failed:\n$got"
  [ "$got" == "$2" ] || fail "psql $1 printed:\n$got\nexpected:\n$2"
}

sql "CREATE TABLE t (a int NOT NULL, b text DEFAULT 'x')"
sql "CREATE TABLE u (c bigint)"
sql "CREATE VIEW v AS SELECT a FROM t"
sql "CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t"
sql "CREATE INDEX t_a ON t (a)"

check '\dt' "          List of relations
 Schema | Name | Type  |    Owner    
--------+------+-------+-------------
 public | t    | table | materialize
 public | u    | table | materialize
(2 rows)"

check '\di' "              List of relations
 Schema | Name | Type  |    Owner    | Table 
--------+------+-------+-------------+-------
 public | t_a  | index | materialize | t
(1 row)"

check '\dv' "         List of relations
 Schema | Name | Type |    Owner    
--------+------+------+-------------
 public | v    | view | materialize
(1 row)"

check '\dm' "                List of relations
 Schema | Name |       Type        |    Owner    
--------+------+-------------------+-------------
 public | m    | materialized view | materialize
(1 row)"

check '\dn' "        List of schemas
       Name       |    Owner    
------------------+-------------
 mz_catalog       | mz_system
 mz_internal      | mz_system
 mz_introspection | mz_system
 public           | materialize
(4 rows)"

check '\d v' "                  View \"public.v\"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 a      | integer |           |          | "

# \dt lists the relations visible on the search path.
got=$(psql -X -q -v ON_ERROR_STOP=1 -c "SET search_path = nowhere" -c '\dt' 2>&1) || fail "$got"
[ "$got" == "      List of relations
 Schema | Name | Type | Owner 
--------+------+------+-------
(0 rows)" ] || fail "\\dt with an empty search path:\n$got"

# Changes show at once.
sql "ALTER TABLE u RENAME TO u2"
check '\dt u*' "          List of relations
 Schema | Name | Type  |    Owner    
--------+------+-------+-------------
 public | u2   | table | materialize
(1 row)"
# OIDs are the same after a restart (user and builtin relations).
oids="SELECT name || ':' || oid FROM mz_objects WHERE name IN ('t', 'v', 'mz_tables', 'pg_class') ORDER BY 1"
before=$(psql -X -At -c "$oids")
kill -TERM $TANDEMD_PID && wait $TANDEMD_PID || true
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$WORK/data" >>"$WORK/log" 2>&1 &
TANDEMD_PID=$!
for _ in $(seq 1 300); do pg_isready -q -h 127.0.0.1 -p $PORT && break; sleep 0.05; done
after=$(psql -X -At -c "$oids")
[ "$(echo "$before" | wc -l)" == 4 ] && [ "$before" == "$after" ] || fail "OIDs before/after restart:\n$before\n$after"
echo "psql_describe_test: ok"
