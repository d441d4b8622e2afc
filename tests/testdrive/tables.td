# Tables: writes are visible to the next read; constraints and bad input
# are errors that lose nothing; SHOW; names built from ${testdrive.seed}
# (a fresh value per run) and values fetched with set-from-sql.

> CREATE TABLE t (a int PRIMARY KEY, b text DEFAULT 'x', c numeric(10,2) NOT NULL)

> INSERT INTO t VALUES (1, 'one', 1.5), (2, NULL, 2)
> INSERT INTO t (a, c) VALUES (3, 3.25)

> SELECT * FROM t
1 one 1.50
2 <null> 2.00
3 x 3.25

! INSERT INTO t VALUES (1, 'again', 0)
contains:duplicate key value violates unique constraint "t_pkey"

! INSERT INTO t (a, b) VALUES (4, 'no c')
exact:null value in column "c" of relation "t" violates not-null constraint

! INSERT INTO t VALUES ('abc', 'x', 1)
regex:^invalid input syntax for type integer: "abc"$

# The failed writes lost nothing and added nothing.
> SELECT count(*), sum(c) FROM t
3 6.75

> UPDATE t SET b = 'two' WHERE a = 2
> DELETE FROM t WHERE a = 3

> SELECT a, b FROM t
a b
---
1 one
2 two

> SHOW TABLES
t

# A table named after the run's seed, and a value carried between commands.
> CREATE TABLE seeded_${testdrive.seed} (v int)
> INSERT INTO seeded_${testdrive.seed} SELECT a * 10 FROM t

$ set-from-sql var=total
SELECT sum(v)::text FROM seeded_${testdrive.seed}

> SELECT ${total} + 1
31

> DROP TABLE seeded_${testdrive.seed}

! SELECT * FROM seeded_${testdrive.seed}
contains:relation "seeded_${testdrive.seed}" does not exist
