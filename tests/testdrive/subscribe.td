# SUBSCRIBE read through DECLARE ... CURSOR and FETCH:
# the snapshot, then each write made on another connection as it commits,
# with mz_timestamp and mz_diff; ENVELOPE UPSERT's states; PROGRESS rows; a constant query at a fixed
# AS OF; evaluation errors on FETCH; the cursor rules. FETCH runs once (a
# second run would consume other rows), and WITH (timeout) makes it wait for
# the next change instead of the runner retrying.

> CREATE TABLE t (a int, b text)
> INSERT INTO t VALUES (1, 'one')
> CREATE VIEW v AS SELECT a, b FROM t WHERE a > 0
> CREATE DEFAULT INDEX ON v

# Timestamps are the commit times (epoch milliseconds): not known up front.
$ set-regex match=^[0-9]{13}$ replacement=<TIMESTAMP>

> BEGIN
> DECLARE c CURSOR FOR SUBSCRIBE v

> FETCH 1 c WITH (timeout = '10s')
mz_timestamp mz_diff a b
---
<TIMESTAMP> 1 1 one

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
INSERT INTO t VALUES (2, 'two'), (-5, 'filtered out')

> FETCH 1 c WITH (timeout = '10s')
<TIMESTAMP> 1 2 two

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
DELETE FROM t WHERE a = 1

> FETCH 1 c WITH (timeout = '10s')
<TIMESTAMP> -1 1 one

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
UPDATE t SET b = 'TWO' WHERE a = 2

> FETCH 2 c WITH (timeout = '10s')
<TIMESTAMP> -1 2 two
<TIMESTAMP> 1 2 TWO

# Nothing else changed: a short wait returns no rows.
> FETCH ALL c WITH (timeout = '100ms')

> COMMIT

# ENVELOPE UPSERT (KEY (a)): one row per key and time with mz_state; an
# UPDATE (a retraction and an insert of one key at once) is an upsert of
# the new values, a DELETE a 'delete' with NULL values, two values of one
# key at once a 'key_violation'.
> CREATE TABLE kv (k int, v text, w int)
> INSERT INTO kv VALUES (1, 'one', 10)
> BEGIN
> DECLARE u CURSOR FOR SUBSCRIBE kv ENVELOPE UPSERT (KEY (k))

> FETCH 1 u WITH (timeout = '10s')
mz_timestamp mz_state k v w
---
<TIMESTAMP> upsert 1 one 10

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
UPDATE kv SET v = 'uno' WHERE k = 1

> FETCH 1 u WITH (timeout = '10s')
<TIMESTAMP> upsert 1 uno 10

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
INSERT INTO kv VALUES (2, 'two', 20), (3, 'three', 30), (3, 'drei', 31)

> FETCH 2 u WITH (timeout = '10s')
<TIMESTAMP> upsert 2 two 20
<TIMESTAMP> key_violation 3 <null> <null>

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
DELETE FROM kv WHERE k = 1

> FETCH 1 u WITH (timeout = '10s')
<TIMESTAMP> delete 1 <null> <null>

$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
DELETE FROM kv WHERE v = 'drei'

# Like Materialize, the envelope keeps no state: a lone retraction is a
# 'delete', even though one value of the key remains.
> FETCH 1 u WITH (timeout = '10s')
<TIMESTAMP> delete 3 <null> <null>

> FETCH ALL u WITH (timeout = '100ms')

> COMMIT

$ unset-regex

# A constant query at a fixed time: its rows, then the subscribe is done.
> BEGIN
> DECLARE k CURSOR FOR SUBSCRIBE (SELECT 1 AS x, 'a' AS y) AS OF 1234

> FETCH ALL k
1234 1 1 a

> FETCH ALL k WITH (timeout = '0s')

> COMMIT

# PROGRESS: a progress row (mz_progressed true, the rest NULL) at the AS OF.
> BEGIN
> DECLARE p CURSOR FOR SUBSCRIBE (SELECT 1 AS x) WITH (PROGRESS) AS OF 1234

> FETCH ALL p WITH (timeout = '10s')
mz_timestamp mz_progressed mz_diff x
---
1234 true <null> <null>
1234 false 1 1

> COMMIT

# Evaluation errors surface on FETCH.
> CREATE TABLE zero (a int)
> INSERT INTO zero VALUES (0)
> BEGIN
> DECLARE e CURSOR FOR SUBSCRIBE (SELECT 1 / a AS q FROM zero)

! FETCH ALL e
contains:Evaluation error: division by zero

> ROLLBACK

# Cursor rules and errors of the statement.
! DECLARE c CURSOR FOR SUBSCRIBE zero
contains:DECLARE CURSOR can only be used in transaction blocks

> BEGIN
> DECLARE c CURSOR FOR SUBSCRIBE zero

! SELECT 1
contains:only FETCH, CLOSE, COMMIT and ROLLBACK may follow DECLARE ... SUBSCRIBE

> ROLLBACK

! SUBSCRIBE (SELECT 1) AS OF 1234 UP TO 5
exact:UP TO (5) must be greater than or equal to AS OF (1234)

! SUBSCRIBE zero ENVELOPE UPSERT (KEY (nope))
contains:No such column: nope
