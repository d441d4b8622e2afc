#!/usr/bin/env bash
# POST /api/sql against pgwire on one tandemd: SELECT 1 and indexed point
# reads (SELECT v FROM t WHERE k = $random, 100,000 rows, the fast path)
# with 1 and 4 clients, the same C client for both (http_vs_pgwire.c:
# libpq's simple query protocol; one keep-alive HTTP/1.1 connection per
# client, each request its own session as /api/sql defines). Rounds
# alternate pgwire and HTTP; the table gives each side's median throughput
# over the rounds, its latency p50/p99 and the ratio HTTP / pgwire.
#
#   bash bench/http_vs_pgwire.sh [SECONDS_PER_RUN] [ROUNDS]   (default 5, 3)
#
# Needs build/bin/tandemd (bash scripts/build.sh), cc and libpq-dev.
set -euo pipefail
SECONDS_PER_RUN=${1:-5}
ROUNDS=${2:-3}
KEYS=100000
cd "$(dirname "$0")/.."
TANDEMD=${TANDEMD:-build/bin/tandemd}
[ -x "$TANDEMD" ] || { echo "build tandemd first: bash scripts/build.sh"; exit 1; }
WORK=$(mktemp -d /tmp/tandem-bench-http-XXXXXX)
cc -O2 -I"$(pg_config --includedir)" -o "$WORK/client" bench/http_vs_pgwire.c -lpq -lpthread
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PG_PORT=$(free_port)
HTTP_PORT=$(free_port)
"$TANDEMD" --listen 127.0.0.1:$PG_PORT --http-listen 127.0.0.1:$HTTP_PORT --data-dir "$WORK/td" \
  --log-level warn >"$WORK/td.log" 2>&1 &
TD_PID=$!
cleanup() {
  kill -TERM $TD_PID 2>/dev/null || true
  wait $TD_PID 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 200); do pg_isready -q -h 127.0.0.1 -p $PG_PORT -U materialize && break; sleep 0.05; done
psql -X -q -h 127.0.0.1 -p $PG_PORT -U materialize materialize -v ON_ERROR_STOP=1 \
  -c "CREATE TABLE t (k int, v text)" \
  -c "INSERT INTO t SELECT g, 'value ' || g FROM generate_series(1, $KEYS) AS g" \
  -c "CREATE INDEX t_k ON t (k)" -c "SELECT count(*) FROM t WHERE k = 1" >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-8s %-8s %12s %12s %10s %10s %10s %10s %8s\n" query clients pgwire_rps http_rps pg_p50_us http_p50_us \
  pg_p99_us http_p99_us ratio
for kind in select1 point; do
  for clients in 1 4; do
    : >"$WORK/pg" && : >"$WORK/http"
    for _ in $(seq 1 "$ROUNDS"); do
      "$WORK/client" pg $PG_PORT "$clients" "$SECONDS_PER_RUN" $kind $KEYS >>"$WORK/pg"
      "$WORK/client" http $HTTP_PORT "$clients" "$SECONDS_PER_RUN" $kind $KEYS >>"$WORK/http"
    done
    pg_rps=$(awk '{print $5}' "$WORK/pg" | median)
    http_rps=$(awk '{print $5}' "$WORK/http" | median)
    printf "%-8s %-8s %12s %12s %10s %10s %10s %10s %7sx\n" $kind "$clients" "$pg_rps" "$http_rps" \
      "$(awk '{print $6}' "$WORK/pg" | median)" "$(awk '{print $6}' "$WORK/http" | median)" \
      "$(awk '{print $7}' "$WORK/pg" | median)" "$(awk '{print $7}' "$WORK/http" | median)" \
      "$(python3 -c "print(f'{$http_rps/$pg_rps:.2f}')")"
  done
done
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
