# The statement fails, but with another error than expected.
# expect: wrong_error.td:7: FAILED: ! SELECT 1 / a FROM t
# expect: - contains:integer out of range
# expect: + Evaluation error: division by zero
> CREATE TABLE t (a int)
> INSERT INTO t VALUES (0)
! SELECT 1 / a FROM t
contains:integer out of range
