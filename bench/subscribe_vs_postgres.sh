#!/usr/bin/env bash
# Freshness of SUBSCRIBE: the time from an acknowledged
# INSERT to the change reaching a subscribed client. tandem: an indexed view
# `agg = SELECT k, count(*), sum(v) FROM t GROUP BY k` over ROWS rows in
# GROUPS groups, followed by `COPY (SUBSCRIBE agg) TO STDOUT`. PostgreSQL 15
# (no SUBSCRIBE): an AFTER INSERT trigger's NOTIFY heard by a LISTEN client,
# its closest push. Both loaded with the same COPY file and measured in one
# run, interleaved, by build/bin/tandem-subscribe-latency.
#
#   bash bench/subscribe_vs_postgres.sh [WRITES] [RATE] [ROWS] [GROUPS]
#     (defaults 1000 writes per server at 100/s, 1000000 rows, 1000 groups)
WRITES=${1:-1000}
RATE=${2:-100}
ROWS=${3:-1000000}
NGROUPS=${4:-1000}
source "$(dirname "$0")/lib.sh"
DRIVER=${TANDEM_SUBSCRIBE_LATENCY:-$(dirname "$TANDEMD")/tandem-subscribe-latency}
[ -x "$DRIVER" ] || { echo "build tandem-subscribe-latency first (cmake --build BUILD --target tandem-subscribe-latency)"; exit 1; }

load_grouped_t "$ROWS" "$NGROUPS"
td_sql "CREATE VIEW agg AS SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k"
td_sql "CREATE INDEX agg_k ON agg (k)"
[ "$(td_sql "SELECT count(*) FROM agg")" == "$NGROUPS" ] || { echo "tandem: agg is not ready"; exit 1; }

"$DRIVER" "host=127.0.0.1 port=$TD_PORT user=materialize dbname=materialize" \
  "host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres" "$WRITES" "$RATE"
# Afterwards the view must equal its query recomputed from t.
check="SELECT (SELECT sum(c) FROM agg) = (SELECT count(*) FROM t)"
[ "$(td_sql "$check")" == "t" ] || { echo "tandem: the view differs from its query after the run"; exit 1; }
