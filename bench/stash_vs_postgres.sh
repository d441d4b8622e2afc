#!/usr/bin/env bash
# A large result read whole (the peek stash): a 200,000-row
# join of two small tables (~100 MB as text, ~500 bytes a row), read with
# COPY (query) TO STDOUT, side by side in one run: PostgreSQL 15, tandemd
# with the peek stash off (compute_peek_response_stash_threshold_bytes = 0:
# the result's snapshots are walked as the client reads) and on (the
# default 1MB: walked into the RocksDB stash first, then read back).
# Prints, per arm, the median wall time of RUNS reads and tandemd's
# resident set (VmRSS) after the read, and the ratios to PostgreSQL.
#
#   bash bench/stash_vs_postgres.sh [RUNS]   (default 5)
SETS=${1:-5}
source "$(dirname "$0")/lib.sh"

for sql in pg_sql td_sql; do
  $sql "CREATE TABLE l (k int, x int, pad text)"
  $sql "CREATE TABLE r (k int, y int)"
  $sql "INSERT INTO l SELECT 1, x, repeat('p', 500) FROM generate_series(0, 999) x"
  $sql "INSERT INTO r SELECT 1, y FROM generate_series(0, 199) y"
done
td_sql "CREATE INDEX l_k ON l (k)"
td_sql "CREATE INDEX r_k ON r (k)"
td_sql "SELECT count(*) FROM l" >/dev/null
td_system() { psql -X -q -At -h 127.0.0.1 -p $TD_PORT -U mz_system materialize -c "$1"; }

python3 - "$PG_PORT" "$TD_PORT" "$TD_PID" "$SETS" <<'PY'
import statistics, subprocess, sys, time
pg_port, td_port, td_pid, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
copy = "COPY (SELECT l.x, r.y, l.pad FROM l JOIN r ON l.k = r.k) TO STDOUT"
def rss_mib():
    for line in open(f"/proc/{td_pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
def psql(port, user, db, sql, out=subprocess.DEVNULL):
    subprocess.run(["psql", "-X", "-q", "-h", "127.0.0.1", "-p", port, "-U", user, db, "-c", sql],
                   stdout=out, check=True)
def read(port, user, db):
    t = time.monotonic()
    p = subprocess.Popen(["psql", "-X", "-q", "-h", "127.0.0.1", "-p", port, "-U", user, db, "-c", copy],
                         stdout=subprocess.PIPE)
    lines = sum(1 for _ in p.stdout)
    p.wait()
    assert lines == 200000, lines
    return time.monotonic() - t
arms = [("postgres", None), ("tandem, stash off", "0"), ("tandem, stash on (1MB)", "1MB")]
times = {a: [] for a, _ in arms}
rss = {a: [] for a, _ in arms}
for _ in range(runs):  # arms interleaved, so load changes hit all of them
    for arm, threshold in arms:
        if threshold is None:
            times[arm].append(read(pg_port, "postgres", "postgres"))
            continue
        psql(td_port, "mz_system", "materialize",
             f"ALTER SYSTEM SET compute_peek_response_stash_threshold_bytes = '{threshold}'")
        times[arm].append(read(td_port, "materialize", "materialize"))
        rss[arm].append(rss_mib())
pg = statistics.median(times["postgres"])
print(f"{'arm':26} {'median s':>9} {'vs PG':>7} {'tandemd RSS after, MiB (median/max)':>38}")
for arm, _ in arms:
    m = statistics.median(times[arm])
    r = f"{statistics.median(rss[arm]):.0f} / {max(rss[arm]):.0f}" if rss[arm] else "-"
    print(f"{arm:26} {m:9.3f} {m / pg:6.2f}x {r:>38}")
PY
