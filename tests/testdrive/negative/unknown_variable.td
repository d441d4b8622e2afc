# expect: unknown_variable.td:4: FAILED: > SELECT '${nope}'
# expect: unknown variable: nope
$ set known=1
> SELECT '${nope}'
1
