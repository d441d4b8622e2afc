# Clusters and session settings: CREATE/DROP CLUSTER, indexes IN CLUSTER,
# SET/SHOW/RESET, which run once (not retried).

> CREATE CLUSTER c2 (SIZE = 'scale=1,workers=2')

> SHOW CLUSTERS
c2 "r1 (scale=1,workers=2)"
mz_catalog_server "r1 (25cc)"
mz_system "r1 (25cc)"
quickstart "r1 (25cc)"

! CREATE CLUSTER bad (SIZE = '1', REPLICATION FACTOR = 2)
contains:REPLICATION FACTOR other than 1 is not supported yet

> CREATE TABLE t (a int, b text)
> CREATE INDEX t_by_a IN CLUSTER c2 ON t (a)
> INSERT INTO t VALUES (1, 'x'), (2, 'y')

> SET cluster = c2

> SHOW cluster
c2

> SELECT b FROM t WHERE a = 2
y

> INSERT INTO t VALUES (3, 'z')

> SELECT count(*) FROM t
3

> RESET cluster

> SHOW cluster
quickstart

> SET application_name = 'testdrive run'

> SHOW application_name
"testdrive run"

! SET extra_float_digits = 4
contains:4 is outside the valid range for parameter "extra_float_digits"

! SHOW no_such_thing
exact:unrecognized configuration parameter "no_such_thing"

> DROP CLUSTER c2 CASCADE

> SHOW CLUSTERS
mz_catalog_server "r1 (25cc)"
mz_system "r1 (25cc)"
quickstart "r1 (25cc)"

> SELECT a FROM t
1
2
3
