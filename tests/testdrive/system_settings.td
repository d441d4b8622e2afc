# System parameters through a second connection as mz_system, the way
# Materialize's testdrive files use ${testdrive.materialize-internal-sql-addr}:
# ALTER SYSTEM SET changes what the default session's next read may return.

> CREATE TABLE big (s text)
> INSERT INTO big VALUES (repeat('x', 600)), (repeat('y', 600))

> SELECT count(*), sum(length(s)) FROM big
2 1200

$ postgres-execute connection=postgres://mz_system@${testdrive.materialize-internal-sql-addr}/materialize
ALTER SYSTEM SET max_result_size = '1kB'

! SELECT * FROM big
contains:result exceeds max size of 1kB

# Small results still fit.
> SELECT length(s) FROM big
600
600

# Only mz_system may change system parameters.
! ALTER SYSTEM SET max_result_size = '2GB'
contains:permission denied

$ postgres-execute connection=postgres://mz_system@${testdrive.materialize-internal-sql-addr}/materialize
ALTER SYSTEM RESET max_result_size

> SELECT count(*) FROM (SELECT * FROM big) AS b
2

# The whole result fits again (1,200 bytes, compared as a hash).
> SELECT * FROM big
2 values hashing to d1a9d29eec7b15da5e7dc585a7d28c04
