# A `>` whose statement keeps failing reports the server's error.
# expect: query_error.td:4: FAILED: > SELECT * FROM nosuch
# expect: query failed: relation "nosuch" does not exist
> SELECT * FROM nosuch
