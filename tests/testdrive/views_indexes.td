# Views and indexes are maintained incrementally: a read after a write
# sees the write once the index has caught up (the `>` retries cover the
# gap); evaluation errors surface as "Evaluation error: ..." and go away
# when the offending row is deleted; DROP ... CASCADE.

> CREATE TABLE g (k int, v int)
> CREATE VIEW agg AS SELECT k, count(*) AS n, sum(v) AS s FROM g GROUP BY k
> CREATE INDEX agg_k ON agg (k)

> SELECT * FROM agg

> INSERT INTO g VALUES (1, 10), (1, 20), (2, 5)

> SELECT * FROM agg
1 2 30
2 1 5

> SELECT n, s FROM agg WHERE k = 1
2 30

> INSERT INTO g VALUES (2, 6), (3, 7)
> DELETE FROM g WHERE k = 1 AND v = 10
> UPDATE g SET v = v * 10 WHERE k = 3

> SELECT * FROM agg
1 1 20
2 2 11
3 1 70

# A view over the indexed view, and a join of two indexed collections.
> CREATE VIEW big AS SELECT k FROM agg WHERE s > 15
> CREATE TABLE names (k int, name text)
> CREATE INDEX names_k ON names (k)
> INSERT INTO names VALUES (1, 'one'), (3, 'three')

> SELECT big.k, name FROM big JOIN names ON big.k = names.k
1 one
3 three

# Errors are data: a zero divisor makes reads fail until it is deleted.
> CREATE VIEW ratio AS SELECT k, 100 / v AS r FROM g
> CREATE INDEX ratio_k ON ratio (k)
> INSERT INTO g VALUES (4, 0)

! SELECT * FROM ratio
exact:Evaluation error: division by zero

! SELECT r FROM ratio WHERE k = 2
contains:division by zero

> DELETE FROM g WHERE v = 0

> SELECT * FROM ratio WHERE k = 2
2 20
2 16

# DROP needs CASCADE while something depends on the table.
! DROP TABLE g
contains:cannot drop table "g": still depended upon by view "agg"

> DROP TABLE g CASCADE

! SELECT * FROM agg
contains:relation "agg" does not exist

! SELECT * FROM ratio
contains:relation "ratio" does not exist

> SELECT * FROM names
1 one
3 three

# Serializable reads do not wait for the newest write: they read at the
# time every input has sealed, so a write shows up a moment later. The
# retries of `>` wait for it.
> SET transaction_isolation = 'serializable'
> CREATE INDEX names_name ON names (name)
> INSERT INTO names VALUES (5, 'five')

> SELECT k FROM names WHERE name = 'five'
5

> DELETE FROM names WHERE k = 1

> SELECT * FROM names
3 three
5 five
