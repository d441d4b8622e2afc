# expect: wrong_plan.td:6: FAILED: ? EXPLAIN SELECT a FROM t WHERE a = 5
# expect: plan differs:
# expect: - Target cluster: elsewhere
# expect: + Target cluster: quickstart
> CREATE TABLE t (a int)
? EXPLAIN SELECT a FROM t WHERE a = 5
Target cluster: elsewhere
