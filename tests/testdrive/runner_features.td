# tandem-td's own directives against a live server: value rendering
# (<null>, booleans, floats, empty and quoted strings), column headers, the
# MD5 form, multi-line SQL, variables (set, set-arg-default, set-from-sql,
# built-ins), set-regex on values and errors, set-sql-timeout, `timeout`,
# set-max-tries, extra connections, sleep and skip-if.

> SELECT NULL::int AS n, true AS t, false AS f, 1.5::float8 AS x, 1e20::float8 AS big, '' AS e, 'a b' AS s
n t f x big e s
---
<null> true false 1.5 100000000000000000000 "" "a b"

> SELECT 'with "quotes"' AS q, 'tab	here' AS tab
"with \"quotes\"" "tab\there"

> SELECT a, b
  FROM (VALUES (1, 'x'), (2, 'y'), (3, 'z')) AS v (a, b)
  WHERE a > 1
3 z
2 y

> SELECT * FROM (VALUES (1), (2)) AS v (a)
2 values hashing to 6ddb4095eb719e2a9f0a3f95677d24e0

$ set greeting=hello
$ set-arg-default greeting=from-default
$ set multi
first line
second line

> SELECT '${greeting}', '${arg.greeting}', length('${multi}')
hello from-default 22

> SELECT '${testdrive.materialize-sql-addr}' LIKE '127.0.0.1:%', '${testdrive.default-timeout}' <> ''
true true

# Extra connections: by URL, and by name.
$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}/materialize
CREATE TABLE side (v int)
INSERT INTO side VALUES (1), (2)

$ postgres-connect name=second url=postgres://materialize@${testdrive.materialize-sql-addr}/materialize

$ postgres-execute connection=second
INSERT INTO side VALUES (3)

> SELECT sum(v) FROM side
6

$ set-from-sql var=n
SELECT count(*)::text FROM side

> SELECT ${n} * 2
6

# set-regex applies to values and to error messages.
$ set-regex match=[0-9]{3,} replacement=<NUMBER>

> SELECT 'id ' || 12345
"id <NUMBER>"

! SELECT * FROM nosuch_12345
exact:relation "nosuch_<NUMBER>" does not exist

$ unset-regex

> SELECT 12345
12345

# A longer SQL timeout; one below the default is ignored unless forced.
$ set-sql-timeout duration=30s
$ set-sql-timeout duration=1ms
$ set-sql-timeout duration=default

# `timeout`: a read at a time no table will reach for ages waits until the
# SQL timeout cancels it; the session goes on.
$ set-sql-timeout duration=1s force=true

! SELECT * FROM side AS OF 99999999999999
timeout

$ set-sql-timeout duration=default

> SELECT count(*) FROM side
3

$ set-max-tries max-tries=3

> SELECT 1
1

# Waits for something that is not a query, which is why it sleeps.
$ sleep-is-probably-flaky-i-have-justified-my-need-with-a-comment duration=10ms
$ random-sleep duration=20ms

# A backslash lets a row start with a sigil.
> SELECT '>' AS gt, '#' AS hash
\> #

$ skip-if
SELECT false

> SELECT 'still running'
"still running"

$ skip-if
SELECT true

> SELECT 'skipped, so never compared'
nothing
