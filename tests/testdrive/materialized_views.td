# Materialized views: kept up to date under writes, readable from any
# cluster, stacked on each other, with errors as data and DROP ... CASCADE.

> CREATE TABLE t (k int, v int)
> INSERT INTO t VALUES (1, 10), (1, 20), (2, 5)

> CREATE MATERIALIZED VIEW mv AS SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k
> CREATE MATERIALIZED VIEW total AS SELECT sum(s) AS s FROM mv

> SELECT * FROM mv
1 2 30
2 1 5

> SELECT * FROM total
35

> INSERT INTO t VALUES (2, 100), (3, 1)

> SELECT * FROM mv
1 2 30
2 2 105
3 1 1

> SELECT * FROM total
136

> SHOW MATERIALIZED VIEWS
name cluster
---
mv quickstart
total quickstart

# On another cluster, read from the default one and from its own.
> CREATE CLUSTER other (SIZE = 'scale=1,workers=2')
> CREATE MATERIALIZED VIEW large IN CLUSTER other AS SELECT k, v FROM t WHERE v > 15

> INSERT INTO t VALUES (4, 40)

> SELECT * FROM large
1 20
2 100
4 40

> SET cluster = other

> SELECT count(*), sum(v) FROM large
3 160

> RESET cluster

# Errors travel with the data.
> CREATE MATERIALIZED VIEW ratio AS SELECT k, 100 / v AS r FROM t
> INSERT INTO t VALUES (9, 0)

! SELECT * FROM ratio
contains:Evaluation error: division by zero

> DELETE FROM t WHERE k = 9

> SELECT r FROM ratio WHERE k = 3
100

! DROP CLUSTER other
contains:cannot drop cluster with active indexes or materialized views

> DROP CLUSTER other CASCADE

! SELECT * FROM large
contains:relation "large" does not exist

> DROP MATERIALIZED VIEW mv CASCADE

! SELECT * FROM total
contains:relation "total" does not exist

> SELECT k, r FROM ratio WHERE k < 3
1 10
1 5
2 20
2 1
