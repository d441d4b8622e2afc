# expect: wrong_columns.td:4: FAILED: > SELECT 1 AS one
# expect: - uno
# expect: + one
> SELECT 1 AS one
uno
---
1
