# EXPLAIN with `?`: the plan text is compared exactly (trailing blank lines
# aside), and changes when an index makes a read a fast-path lookup.

> CREATE TABLE t (a int, b text)

? EXPLAIN SELECT b FROM t WHERE a = 5
Explained Query:
  Project (#2)
    Map (#1)
      Filter (#0 = 5)
        ReadStorage materialize.public.t
Source materialize.public.t
Target cluster: quickstart
Target runtime: interactive

> CREATE INDEX t_a ON t (a)

? EXPLAIN SELECT * FROM t WHERE a = 5
Explained Query (fast path):
  →Map/Filter/Project
    →Index Lookup on materialize.public.t (using materialize.public.t_a)
      Lookup values: (5)
Used Indexes:
  - materialize.public.t_a (lookup)
Target cluster: quickstart
Target runtime: interactive

# set-regex rewrites plan text too.
$ set-regex match=materialize\.public\.t_a replacement=<INDEX>

? EXPLAIN SELECT * FROM t WHERE a = 5
Explained Query (fast path):
  →Map/Filter/Project
    →Index Lookup on materialize.public.t (using <INDEX>)
      Lookup values: (5)
Used Indexes:
  - <INDEX> (lookup)
Target cluster: quickstart
Target runtime: interactive

$ unset-regex

! EXPLAIN SELECT * FROM nosuch
contains:relation "nosuch" does not exist
