#!/usr/bin/env bash
# Freshness of a maintained view: how long a one-row
# INSERT takes to show in `SELECT k, count(*), sum(v) FROM t GROUP BY k` over
# ROWS rows in GROUPS groups, measured from the client. tandem keeps the view
# as an index (CREATE VIEW + CREATE INDEX) and the read after the INSERT's ack
# is a strict serializable lookup through it; PostgreSQL 15 has the same query
# as a MATERIALIZED VIEW (indexed on k) and pays INSERT + REFRESH
# MATERIALIZED VIEW. Both servers are loaded with the same COPY file and
# measured in one run, interleaved, by build/bin/tandem-latency.
#
#   bash bench/freshness_vs_postgres.sh [ROUNDS] [TANDEM_PER_ROUND] [ROWS] [GROUPS]
#     (defaults 20 rounds of 50 tandem samples and 1 PostgreSQL sample, 1000000 rows, 1000 groups)
ROUNDS=${1:-20}
PER_ROUND=${2:-50}
ROWS=${3:-1000000}
NGROUPS=${4:-1000}
source "$(dirname "$0")/lib.sh"
LATENCY=${TANDEM_LATENCY:-$(dirname "$TANDEMD")/tandem-latency}
[ -x "$LATENCY" ] || { echo "build tandem-latency first (cmake --build BUILD --target tandem-latency)"; exit 1; }

load_grouped_t "$ROWS" "$NGROUPS"
pg_sql "CREATE MATERIALIZED VIEW agg AS SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k"
pg_sql "CREATE INDEX agg_k ON agg (k)"
pg_sql "VACUUM ANALYZE t"
td_sql "CREATE VIEW agg AS SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k"
td_sql "CREATE INDEX agg_k ON agg (k)"
# Both must agree before the clock starts.
q="SELECT count(*), sum(c), sum(s) FROM agg"
[ "$(pg_sql "$q")" == "$(td_sql "$q")" ] || { echo "the views differ: $(pg_sql "$q") vs $(td_sql "$q")"; exit 1; }

echo "freshness: $ROWS rows, $NGROUPS groups, $ROUNDS rounds x ($PER_ROUND tandem + 1 postgres) samples"
"$LATENCY" freshness "host=127.0.0.1 port=$TD_PORT user=materialize dbname=materialize" \
  "host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres" "$ROUNDS" "$PER_ROUND" "$NGROUPS"
# Afterwards each view must still equal its query recomputed from t.
check="SELECT (SELECT sum(c) FROM agg) = (SELECT count(*) FROM t) AND (SELECT sum(s) FROM agg) = (SELECT sum(v) FROM t)"
for sql in pg_sql td_sql; do
  [ "$($sql "$check")" == "t" ] || { echo "$sql: the view differs from its query after the run"; exit 1; }
done
