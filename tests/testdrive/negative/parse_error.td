# A `!` without contains:/exact:/regex:/timeout is a parse error at its line.
# expect: parse_error.td:6: FAILED: parse error: expected contains:, exact:, regex: or timeout
> SELECT 1
1
! SELECT 1 / 0
division by zero
