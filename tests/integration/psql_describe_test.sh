# psql 15's describe commands against tandemd: \l, \dt,
# \di, \dv, \dm, \dn, \d and \d+ of a table (with a primary key, an
# index and an array column), of an index, a view and a materialized view
# send their pg_catalog queries (see psql -E: arrays, ARRAY(subquery),
# = ANY, unnest, pg_policy, pg_statistic_ext, pg_publication*) and print
# what PostgreSQL prints for the same objects, with tandem's owners
# (materialize), defaults, index definitions and access methods
# (arrangement for CREATE INDEX, hash for a key's index).
source "$(dirname "$0")/lib.sh"

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

check '\l' "                                                 List of databases
    Name     |    Owner    | Encoding | Collate | Ctype | ICU Locale | Locale Provider |     Access privileges      
-------------+-------------+----------+---------+-------+------------+-----------------+----------------------------
 materialize | materialize | UTF8     | C       | C     |            | libc            | materialize=UC/materialize+
             |             |          |         |       |            |                 | =UC/materialize
(1 row)"

check '\d t' "                 Table \"public.t\"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 a      | integer |           | not null | 
 b      | text    |           |          | 'x'
Indexes:
    \"t_a\" CREATE INDEX t_a IN CLUSTER quickstart ON materialize.public.t (a)"

check '\d+ t' "                                            Table \"public.t\"
 Column |  Type   | Collation | Nullable | Default | Storage  | Compression | Stats target | Description 
--------+---------+-----------+----------+---------+----------+-------------+--------------+-------------
 a      | integer |           | not null |         | plain    |             |              | 
 b      | text    |           |          | 'x'     | extended |             |              | 
Indexes:
    \"t_a\" CREATE INDEX t_a IN CLUSTER quickstart ON materialize.public.t (a)"

check '\d t_a' "          Index \"public.t_a\"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 a      | integer | yes  | a
arrangement, for table \"public.t\""

check '\d m' "           Materialized view \"public.m\"
 Column |  Type  | Collation | Nullable | Default 
--------+--------+-----------+----------+---------
 n      | bigint |           |          | "

check '\d+ m' "                                     Materialized view \"public.m\"
 Column |  Type  | Collation | Nullable | Default | Storage | Compression | Stats target | Description 
--------+--------+-----------+----------+---------+---------+-------------+--------------+-------------
 n      | bigint |           |          |         | plain   |             |              | 
View definition:
SELECT count(*) AS n FROM materialize.public.t;"

# A primary key (its hash index), an expression index and an array column.
sql "CREATE TABLE k (id int PRIMARY KEY, name text NOT NULL DEFAULT 'anon', tags text[])"
sql "CREATE INDEX k_expr ON k (id + 1, name)"
check '\d k' "                 Table \"public.k\"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
 name   | text    |           | not null | 'anon'
 tags   | text[]  |           |          | 
Indexes:
    \"k_pkey\" PRIMARY KEY, hash (id)
    \"k_expr\" CREATE INDEX k_expr IN CLUSTER quickstart ON materialize.public.k ((id + 1), name)"

check '\d+ k' "                                            Table \"public.k\"
 Column |  Type   | Collation | Nullable | Default | Storage  | Compression | Stats target | Description 
--------+---------+-----------+----------+---------+----------+-------------+--------------+-------------
 id     | integer |           | not null |         | plain    |             |              | 
 name   | text    |           | not null | 'anon'  | extended |             |              | 
 tags   | text[]  |           |          |         | extended |             |              | 
Indexes:
    \"k_pkey\" PRIMARY KEY, hash (id)
    \"k_expr\" CREATE INDEX k_expr IN CLUSTER quickstart ON materialize.public.k ((id + 1), name)"

check '\d k_pkey' "        Index \"public.k_pkey\"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 id     | integer | yes  | id
primary key, hash, for table \"public.k\""

check '\d k_expr' "        Index \"public.k_expr\"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 expr   | integer | yes  | (id + 1)
 name   | text    | yes  | name
arrangement, for table \"public.k\""

# Array values travel both ways through psql (text format) and COPY.
sql "INSERT INTO k VALUES (1, 'a', '{x,\"y z\"}'), (2, 'b', NULL)"
got=$(psql -X -At -c "SELECT id, tags, tags[2], array_to_string(tags, '|') FROM k ORDER BY id")
[ "$got" == '1|{x,"y z"}|y z|x|y z
2|||' ] || fail "array values:\n$got"
got=$(psql -X -c "COPY k TO STDOUT" | sort)
[ "$got" == '1	a	{x,"y z"}
2	b	\N' ] || fail "COPY of an array column:\n$got"

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
