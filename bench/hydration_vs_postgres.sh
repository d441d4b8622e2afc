#!/usr/bin/env bash
# Index hydration: CREATE INDEX over a ROWS-row table
# h(id bigint, a int, b text) loaded by COPY, timed until a lookup
# `SELECT b FROM h WHERE id = x` through the new index answers (tandem's
# CREATE INDEX may return before the arrangement is built; the lookup waits
# for it). PostgreSQL 15 runs the same CREATE INDEX + lookup. Measured in one
# run, alternating tandem and PostgreSQL, by build/bin/tandem-latency; the
# index is dropped between samples.
#
#   bash bench/hydration_vs_postgres.sh [ROUNDS] [ROWS]   (defaults 5, 1000000)
ROUNDS=${1:-5}
ROWS=${2:-1000000}
source "$(dirname "$0")/lib.sh"
LATENCY=${TANDEM_LATENCY:-$(dirname "$TANDEMD")/tandem-latency}
[ -x "$LATENCY" ] || { echo "build tandem-latency first (cmake --build BUILD --target tandem-latency)"; exit 1; }

python3 -c "
with open('$WORK/h.txt', 'w') as f:
    for i in range($ROWS):
        f.write(f'{i}\t{i % 1000}\trow number {i}\n')
"
chmod 644 "$WORK/h.txt"
for sql in pg_sql td_sql; do
  $sql "CREATE TABLE h (id bigint, a int, b text)"
  $sql "\\copy h FROM '$WORK/h.txt'"
done
pg_sql "VACUUM ANALYZE h"

echo "hydration: $ROWS rows, $ROUNDS rounds"
"$LATENCY" hydration "host=127.0.0.1 port=$TD_PORT user=materialize dbname=materialize" \
  "host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres" "$ROUNDS"
