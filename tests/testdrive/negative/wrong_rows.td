# The rows never match: reported after retrying for the timeout, with a diff;
# the commands after it do not run.
# expect: wrong_rows.td:11: FAILED: > SELECT a FROM t
# expect: - 3
# expect: + 2
# expect: ms; timeout 1s)
# expect: failed (2 commands passed)
> CREATE TABLE t (a int)
> INSERT INTO t VALUES (1), (2)

> SELECT a FROM t
1
3

> SELECT 'never reached'
"never reached"
