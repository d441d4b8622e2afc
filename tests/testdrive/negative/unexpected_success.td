# A `!` DDL statement that succeeds fails at once: running it again would
# see the table it made and "match" the expected error.
# expect: unexpected_success.td:5: FAILED: ! CREATE TABLE t (a int)
# expect: the statement succeeded, but an error was expected
! CREATE TABLE t (a int)
contains:already exists
